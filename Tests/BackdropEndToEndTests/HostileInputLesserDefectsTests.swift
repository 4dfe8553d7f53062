import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 43, the lesser defects: memory that follows the pixels and not the picture's shape, a header refused when
/// its data cannot hold it or no allocation could, the temporary files a SIGKILL leaves removed by the next run, and
/// every name printed escaped. Each test failed on the build before the change (its comment says how).
@Suite("Hostile input, round two: the lesser defects")
struct HostileInputLesserDefectsTests {
    /// Writes a PNG of `width` × `height` mid-grey pixels of `colorType` (0 grey, 2 RGB) and `bitDepth`, optionally
    /// interlaced, or with `idatBytes` of data only (a header that lies), through Python's zlib.
    static func writePNG(
        _ path: String, width: Int, height: Int, colorType: Int = 0, bitDepth: Int = 8, interlaced: Bool = false,
        gamma: Bool = false, lying: Bool = false
    ) throws {
        let script = #"""
            import struct, sys, zlib
            path, w, h, ct, depth, interlaced, gamma, lying = sys.argv[1], *map(int, sys.argv[2:])
            chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
            channels = {0: 1, 2: 3}[ct]
            row = b"\0" + b"\x80" * (w * channels * depth // 8)
            compressor = zlib.compressobj(6)
            if lying:
                data = zlib.compress(row)
            else:
                data = b"".join(compressor.compress(row) for _ in range(h)) + compressor.flush()
            head = struct.pack(">IIBBBBB", w, h, depth, ct, 0, 0, interlaced)
            extra = chunk(b"gAMA", struct.pack(">I", 45455)) if gamma else b""
            open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + extra + chunk(b"IDAT", data)
                                   + chunk(b"IEND", b""))
            """#
        let result = try runProcess(
            "/usr/bin/env",
            ["python3", "-c", script, path] + [width, height, colorType, bitDepth].map(String.init)
                + [interlaced, gamma, lying].map { $0 ? "1" : "0" })
        guard result.status == 0 else { throw FixtureMissing(path: "python3 zlib (\(result.output))") }
    }

    /// Defect 7, shapes: a 1×100M picture took 1.9 GB, a 100M×1 one 2.2 GB, a square of the same pixels 0.9 GB (the
    /// libpng path kept an array of row pointers, 8 bytes a row; the encoder packed two whole rows aside): 19 and 22
    /// bytes a pixel against 9. Every shape of 9 megapixels now peaks within 12 bytes a pixel (three pictures) above a
    /// 1×1 render's peak, and within 7 of the square's, on libpng's path (grey) and the fast one (RGB). The bound is
    /// per pixel, not the square's peak times 1.3 as it was: the square's render now draws over its own picture (one
    /// picture fewer) and is written by the own PNG encoder (a row at a time), while a one-row picture's peak is a
    /// row's buffers, each the whole picture (libpng's two rows at the expanded width, or libdeflate's filtered row:
    /// the own encoder takes pictures up to 65,536 pixels wide): 9.2–10.9 bytes a pixel, the square 4.4–4.8.
    @Test(arguments: [0, 2])
    func memoryFollowsThePixelsNotTheShape(colorType: Int) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var peaks: [String: Int] = [:]
        for (name, width, height) in [
            ("1×1", 1, 1), ("square", 3000, 3000), ("wide", 9_000_000, 1), ("tall", 1, 9_000_000),
        ] {
            let input = directory.appendingPathComponent("\(name).png").path
            try Self.writePNG(input, width: width, height: height, colorType: colorType)
            let run = try runCLIMeasuringPeakMemory(
                ["render", input, "-o", directory.appendingPathComponent("out-\(name).png").path, "--frame", "0,0,1,1"])
            #expect(run.status == 0, "\(run.output)")
            peaks[name] = run.bytes
        }
        let pixels = 9_000_000.0
        let square = Double(peaks["square"]! - peaks["1×1"]!) / pixels
        for name in ["square", "wide", "tall"] {
            let perPixel = Double(peaks[name]! - peaks["1×1"]!) / pixels
            #expect(perPixel <= 12, "\(name): \(perPixel) bytes a pixel above a 1×1 render's peak")
            #expect(perPixel <= square + 7, "\(name): \(perPixel) bytes a pixel against the square's \(square)")
        }
    }

    /// Defect 7, a lying header: an 85-byte file declaring 10000×10000 grey with gAMA (or 16-bit, or interlaced) cost
    /// 8.3 s and 405 MB before "Not enough image data". Its data cannot inflate to that size (deflate's ratio is at
    /// most 1032 to 1), so it is refused from its chunks' lengths, before any buffer of its size.
    @Test(arguments: [(8, false, true), (16, false, false), (8, true, false)])
    func aHeaderItsDataCannotHoldIsRefusedBeforeItsBuffer(bitDepth: Int, interlaced: Bool, gamma: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("liar.png").path
        try Self.writePNG(
            input, width: 10000, height: 10000, bitDepth: bitDepth, interlaced: interlaced, gamma: gamma, lying: true)
        let run = try runCLIMeasuringPeakMemory([
            "render", input, "-o", directory.appendingPathComponent("out.png").path,
        ])
        #expect(run.status == 1 && run.output.contains("cannot hold the 10000×10000 pixels"), "\(run.output)")
        #expect(run.bytes < 100_000_000, "\(run.bytes) bytes")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.png").path))
    }

    /// Defect 7, no allocation could hold it: with `--max-pixels 4294967296` a 65536² header aborted (exit 134)
    /// under a 16 GB cap. A picture whose buffers pass the process's address-space limit is now a one-line error
    /// (here 12000×12000 16-bit grey, 1.15 GB decoded, under a 1.5 GB cap).
    @Test func aPictureNoAllocationCouldHoldIsRefusedInOneLine() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("big.png").path
        try Self.writePNG(input, width: 12000, height: 12000, bitDepth: 16)
        let run = try runCLIMeasuringPeakMemory(
            ["render", input, "-o", directory.appendingPathComponent("out.png").path, "--max-pixels", "4294967296"],
            addressSpaceLimit: 1_500_000_000)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("more than this process may allocate"), "\(run.output)")
        #expect(run.output.split(separator: "\n").count == 1, "\(run.output)")
    }

    /// Defect 7, SIGKILL: a killed run left hidden temporary files of up to 65 MB (5 of 30 trials). The next write
    /// into the folder removes those of this machine's dead processes, and leaves a live process's, another
    /// machine's, a link and a file that only looks like one. (The old build named its files otherwise and removed
    /// none.)
    @Test func temporaryFilesAKilledRunLeftAreRemovedByTheNextRun() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A PID that was alive and is no more: a process run to its end.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let deadPID = finished.processIdentifier
        func named(pid: Int32, host: String? = nil) -> String {
            var suffix = StaleTemporaryFiles.suffix(number: 7).replacingOccurrences(
                of: "-\(getpid())-", with: "-\(pid)-")
            if let host {
                suffix = suffix.replacingOccurrences(
                    of: #"-[0-9a-f]{8}-"#, with: "-\(host)-", options: .regularExpression)
            }
            return ".out.png" + suffix
        }
        let stale = named(pid: deadPID)
        let kept = [named(pid: 1), named(pid: deadPID, host: "0badf00d"), ".out.png.tmp-\(deadPID)-7", "notes.tmp"]
        for name in [stale] + kept {
            try Data(count: 4096).write(to: directory.appendingPathComponent(name))
        }
        let link = named(pid: deadPID).replacingOccurrences(of: "out.png", with: "link.png")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent(link).path, withDestinationPath: "/etc/hostname")
        let photo = Fixtures.path("photos/coffee.png")
        guard FileManager.default.fileExists(atPath: photo) else { throw FixtureMissing(path: photo) }
        let result = try runCLI(["render", photo, "-o", directory.appendingPathComponent("out.png").path])
        #expect(result.status == 0, "\(result.standardError)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(!left.contains(stale), "\(left)")
        #expect(left == Set(kept + [link, "out.png"]), "\(left)")
    }

    /// Defect 7, names: bidirectional controls and escapes in a file name reached the terminal from the commands
    /// that print paths (compare, the argument parser's errors), and JSON must stay JSON.
    @Test func everyNamePrintedIsEscapedAndJSONStaysValid() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = Fixtures.path("photos/coffee.png")
        guard FileManager.default.fileExists(atPath: photo) else { throw FixtureMissing(path: photo) }
        let name = directory.appendingPathComponent("a\u{202E}gnp.\u{1B}[31mexe.png").path
        try FileManager.default.copyItem(atPath: photo, toPath: name)
        func raw(_ text: String) -> Bool { text.unicodeScalars.contains { [0x202E, 0x1B].contains($0.value) } }
        let text = try runCLI(["compare", name, name])
        #expect(text.status == 0 && !raw(text.standardOutput), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("\\u{202E}"), "\(text.standardOutput)")
        let json = try runCLI(["compare", name, name, "--format", "json"])
        #expect(json.status == 0 && !raw(json.standardOutput), "\(json.standardOutput)")
        let record = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(record?["actual"] as? String == name, "\(json.standardOutput)")
        let parser = try runCLI(["render", photo, "--st\u{202E}yle\u{1B}[2J", "light"])
        #expect(parser.status == 2 && !raw(parser.standardError), "\(parser.standardError)")
        let scene = directory.appendingPathComponent("scene.json")
        try Data(#"{"name": "a\u202Eb", "layers": []}"#.utf8).write(to: scene)
        let refused = try runCLI(["estimate", "--scene", scene.path, "--device", "iphone-5"])
        #expect(refused.status != 0 && refused.standardError.contains("U+202E"), "\(refused.standardError)")
    }
}
