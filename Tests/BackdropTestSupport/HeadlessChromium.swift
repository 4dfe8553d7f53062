import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands in on fd 3,
/// answers out on fd 4, each a JSON message ended by a NUL byte): a page loaded, waited for, read, clicked, dragged
/// and photographed in real time, with no WebSocket client and no virtual time. Every wait has a deadline, so a
/// page that never answers fails the test instead of hanging it.
public final class HeadlessChromium {
    /// Where Chromium is on Debian; tests fail naming the installer when it is missing.
    public static func executable() throws -> String {
        guard
            let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { throw FixtureMissing(path: "/usr/bin/chromium (scripts/install-deps --test installs it)") }
        return path
    }

    /// A DevTools command's error, or a deadline passed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    let pid: pid_t
    let commands: Int32
    let answers: Int32
    let profile: URL
    var buffer: [UInt8] = []
    var nextID = 0
    var session = ""

    /// Starts Chromium with a `width`×`height` window (CSS pixels, device scale 1) and opens a blank page.
    public init(width: Int = 1400, height: Int = 900) throws {
        profile = try Fixtures.temporaryDirectory()
        var toChromium: [Int32] = [0, 0], fromChromium: [Int32] = [0, 0]
        guard pipe(&toChromium) == 0, pipe(&fromChromium) == 0 else { throw Failure(description: "pipe failed") }
        let arguments = [
            try Self.executable(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)",
            "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions", "about:blank",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChromium[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromChromium[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // A test runner may block signals; Chromium must be able to receive them (and be stopped).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
        close(toChromium[0])
        close(fromChromium[1])
        guard status == 0 else { throw Failure(description: "cannot start \(arguments[0]): error \(status)") }
        pid = child
        commands = toChromium[1]
        answers = fromChromium[0]
        let target = try call("Target.createTarget", ["url": "about:blank"], onPage: false)
        let attached = try call(
            "Target.attachToTarget", ["targetId": target["targetId"] ?? "", "flatten": true], onPage: false)
        session = attached["sessionId"] as? String ?? ""
        _ = try call("Page.enable")
        _ = try call("Runtime.enable")
    }

    deinit {
        close(commands)
        close(answers)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends a command (to the page unless `onPage` is false) and returns its result; throws its error.
    @discardableResult
    public func call(
        _ method: String, _ parameters: [String: Any] = [:], onPage: Bool = true, timeout: Double = 30
    ) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if onPage { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "Chromium closed its pipe") }
            written += count
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let answer = try readMessage(until: deadline, waitingFor: method)
            guard answer["id"] as? Int == nextID else { continue }  // an event, or an older answer
            if let error = answer["error"] as? [String: Any] {
                throw Failure(description: "\(method): \(error["message"] ?? error)")
            }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    /// Loads `url` and waits for its load event.
    public func open(_ url: String, timeout: Double = 30) throws {
        _ = try call("Page.navigate", ["url": url])
        _ = try evaluate(
            "new Promise(r => document.readyState === 'complete' ? r(1) : addEventListener('load', () => r(1)))",
            timeout: timeout)
    }

    /// The value of a JavaScript expression on the page; a promise is awaited.
    @discardableResult
    public func evaluate(_ expression: String, timeout: Double = 30) throws -> Any? {
        let result = try call(
            "Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true],
            timeout: timeout)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            let text = (exception["exception"] as? [String: Any])?["description"] ?? exception["text"] ?? ""
            throw Failure(description: "\(expression.prefix(80)): \(text)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits until `condition` (a JavaScript expression) is true, polling every 20 ms on the page.
    public func wait(for condition: String, timeout: Double = 30) throws {
        let ok = try evaluate(
            """
            new Promise(r => { const end = performance.now() + \(Int(timeout * 1000) - 500);
              const poll = () => (\(condition)) ? r(true) : performance.now() > end ? r(false) : setTimeout(poll, 20);
              poll(); })
            """, timeout: timeout)
        guard ok as? Bool == true else {
            let error = (try? evaluate("document.body?.dataset.error ?? ''", timeout: 5)) as? String ?? ""
            let context = error.isEmpty ? "" : "; the page's error: \(error)"
            throw Failure(description: "timed out waiting for \(condition)\(context)")
        }
    }

    /// A mouse event at (x, y) in CSS pixels: `mousePressed`, `mouseMoved` or `mouseReleased`, left button.
    public func mouse(_ type: String, x: Double, y: Double) throws {
        _ = try call(
            "Input.dispatchMouseEvent",
            [
                "type": type, "x": x, "y": y, "button": "left", "buttons": type == "mouseReleased" ? 0 : 1,
                "clickCount": 1,
            ])
    }

    /// The page as a PNG, the size of the window.
    public func screenshot() throws -> Data {
        let result = try call("Page.captureScreenshot", ["format": "png"])
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "Page.captureScreenshot returned no picture")
        }
        return data
    }

    /// The next NUL-ended message from Chromium.
    func readMessage(until deadline: Date, waitingFor method: String) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                return try JSONSerialization.jsonObject(with: message) as? [String: Any] ?? [:]
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "\(method): no answer from Chromium in time") }
            var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) >= 0 else { continue }
            guard poller.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(answers, &chunk, chunk.count)
            guard count > 0 else { throw Failure(description: "Chromium exited while answering \(method)") }
            buffer += chunk[..<count]
        }
    }
}
