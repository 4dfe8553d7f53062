import Backdrop
import Foundation

/// One render's settings, resolved once: everything but the input and output files.
struct RenderJob: Sendable {
    let prepared: PreparedRender
    let decoder: ImageDecoder
    let encoder: PNGEncoder
    /// `--quality`, for `.jpg` and `.webp` outputs.
    var quality = OutputPictureFormat.defaultQuality
    let renderer: Renderer

    /// Renders `input` (nil for a scene) into `output` (atomically) and returns the line to report; `status` shows
    /// each stage. The effect is drawn over the input's own buffer where the plan allows it
    /// (``PreparedRender/render(consuming:renderer:maxImagePixels:stage:)``), and the input is released before the
    /// output is encoded otherwise: for a 100-megapixel picture a second picture, and the encoder's buffers on top of
    /// both, would cost 400 MB and more. With `--color-space keep` the input is decoded
    /// unconverted and its colour space written into the output (``PictureColorSpace``).
    func render(
        _ input: String?, to output: String, renderer: Renderer? = nil, status: StageStatus? = nil
    ) throws(BackdropError) -> String {
        defer { status?.clear() }
        var space = PictureColorSpace.sRGB
        var outcome = try prepared.render(
            consuming: try input.map { path throws(BackdropError) in
                status?.enter("decoding \(path)")
                let decoded = try decoder.decodeFile(path, choice: prepared.colorSpace)
                space = decoded.space
                return decoded.image
            }, renderer: renderer ?? self.renderer, maxImagePixels: decoder.maxPixels, stage: { status?.enter($0) })
        status?.clear()
        for note in outcome.notes { FileHandle.standardError.write(Data("backdrop: \(note)\n".utf8)) }
        status?.enter("encoding \(output)")
        let format = try OutputPictureFormat(path: output)
        guard format != .png else {
            // The picture's own buffer holds the filtered rows (opaque 8-bit pictures): one picture-sized buffer fewer.
            // The encoder writes the kept space's chunks itself: no copy of the file to retag it.
            var encoder = encoder
            encoder.colorSpace = space
            try outcome.picture.write(with: encoder, to: output)
            return "wrote \(output) \(outcome.summary)"
        }
        let picture: RGBAImage<UInt8>
        switch outcome.picture {
        case .eight(let image): picture = image
        case .sixteen(let image):
            picture = RGBAImage(
                width: image.width, height: image.height, samples: image.samples.map { UInt8(reducing16: $0) })
        }
        if case .codes(let primaries, let transfer, nil) = space {
            FileHandle.standardError.write(
                Data(
                    "backdrop: warning: \(input ?? output): colour primaries \(primaries) with transfer \(transfer) have no ICC profile for a \(format.rawValue); written untagged\n"
                        .utf8))
        }
        try LossyEncoder(format: format, quality: quality).write(picture, profile: space.outputProfile, to: output)
        return "wrote \(output) \(outcome.summary)"
    }

    /// Renders `input`, decoded once, `runs` times in this process and returns a line with the median and the
    /// fastest wall-clock time of the render alone (no decoding, no encoding).
    func timing(of input: String, runs: Int) throws(BackdropError) -> String {
        let source = try decoder.decodeFile(input, choice: prepared.colorSpace).image
        var seconds: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            _ = try prepared.render(source, renderer: renderer)
            let elapsed = ContinuousClock.now - start
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        seconds.sort()
        let median =
            seconds.count % 2 == 1
            ? seconds[seconds.count / 2]
            : (seconds[seconds.count / 2 - 1] + seconds[seconds.count / 2]) / 2
        return String(
            format: "render time: median %.3f ms, fastest %.3f ms over %@ (decoding and encoding excluded)",
            median * 1000, seconds[0] * 1000, Plural.count(runs, "run"))
    }
}

/// `backdrop render … --output-dir DIR`: many files with the same options, past failures, with progress.
struct BatchRender {
    /// Files rendered at once by default: 2, measured faster than 1 with two cores when decoding and encoding were
    /// serial per file (both now use a second core on large pictures), while the effect itself uses every core.
    static let defaultJobs = 2

    /// (input, output) pairs in the order given, folders expanded to their pictures (``ImageFormat``, by content)
    /// sorted by name. An output is the input's name with the format's extension (``outputName(of:format:)``).
    let files: [(input: String, output: String)]
    let outputDirectory: String

    /// Plans the batch of `format` outputs, then creates the output folder when it is missing: a batch refused leaves
    /// no folder behind. Errors: no picture at all, two inputs with the same output name, an output that is its input
    /// (without `force`), an output folder that is not a folder or cannot be created or written. An input that does
    /// not exist is one failed file of the batch, reported in its turn. A folder's files that are not pictures are
    /// named in one line on standard error.
    init(inputs: [String], outputDirectory: String, format: OutputPictureFormat = .png, force: Bool)
        throws(BackdropError)
    {
        var isDirectory: ObjCBool = false
        var expanded: [String] = []
        for input in inputs {
            // A missing file is reported when its turn comes, with the others rendered: one typo does not stop a
            // batch.
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []
                var skipped: [String] = []
                for name in names.sorted() where !name.hasPrefix(".") {
                    let path = input + "/" + name
                    if Self.isPicture(path) { expanded.append(path) } else { skipped.append(name) }
                }
                if !skipped.isEmpty {
                    FileHandle.standardError.write(
                        Data(
                            "backdrop: skipped \(skipped.count) file\(skipped.count == 1 ? "" : "s") in \(input) that \(skipped.count == 1 ? "is" : "are") not \(ImageFormat.names): \(skipped.joined(separator: ", "))\n"
                                .utf8))
                }
            } else {
                expanded.append(input)
            }
        }
        guard !expanded.isEmpty else {
            throw BackdropError(.badInput, "no \(ImageFormat.names) files in \(inputs.joined(separator: ", "))")
        }
        var seen: [String: String] = [:]  // by the name lower-cased: some file systems ignore case
        var files: [(String, String)] = []
        for input in expanded {
            let name = Self.outputName(of: input, format: format)
            if let earlier = seen[name.lowercased()] {
                throw BackdropError(
                    .badOption, "\(earlier) and \(input) would both be written to \(outputDirectory)/\(name)")
            }
            seen[name.lowercased()] = input
            let output = outputDirectory + "/" + name
            if !force, InputFile.same(input, output) {
                throw BackdropError(.badOption, "\(output): is the input file; pass --force to overwrite it")
            }
            files.append((input, output))
        }
        if !FileManager.default.fileExists(atPath: outputDirectory, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
            } catch {
                throw BackdropError(.output, "\(outputDirectory): cannot create the output folder")
            }
            isDirectory = true
        }
        guard isDirectory.boolValue else {
            throw BackdropError(.output, "\(outputDirectory): the output folder is not a folder")
        }
        guard access(outputDirectory, W_OK) == 0 else {
            throw BackdropError(.output, "\(outputDirectory): the output folder is not writable")
        }
        self.files = files
        self.outputDirectory = outputDirectory
    }

    /// The output's file name for `input` in `format`: its own when its extension names the format
    /// (``OutputPictureFormat/init(path:)``: `.png`; `.jpg` or `.jpeg`; `.webp`, in any case), otherwise its extension
    /// replaced by the format's ``OutputPictureFormat/fileExtension``.
    static func outputName(of input: String, format: OutputPictureFormat = .png) -> String {
        let name = PathComponents.lastComponent(of: input)
        if !PathComponents.pathExtension(of: name).isEmpty, (try? OutputPictureFormat(path: name)) == format {
            return name
        }
        return PathComponents.removingExtension(name) + "." + format.fileExtension
    }

    /// Whether the file at `path` is one to render: a regular file that starts like a picture Backdrop reads
    /// (``ImageFormat``), or a FIFO or device (never opened here: its turn reports it as not a regular file).
    static func isPicture(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return false }
        guard info.st_mode & S_IFMT == S_IFREG else { return true }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: ImageFormat.sniffedBytes)
        let count = read(fd, &prefix, prefix.count)
        return count > 0 && ImageFormat(sniffing: prefix[0..<count]) != nil
    }

    /// Renders every file, `jobs` at a time; reports each and a summary. Returns whether all succeeded.
    func run(_ job: RenderJob, jobs: Int) -> Bool {
        let progress = Progress(total: files.count, onTerminal: isatty(STDERR_FILENO) == 1)
        let files = files
        let workers = min(jobs, files.count)
        // Cores shared between the files in flight; the output does not depend on the thread count.
        let threads = max(1, Parallelism.defaultThreadCount / workers)
        let renderer = Renderer(
            parallelism: Parallelism(scheduler: job.renderer.parallelism.scheduler, threads: threads))
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = next.take(below: files.count) {
                let (input, output) = files[index]
                do throws(BackdropError) {
                    progress.finished(line: try job.render(input, to: output, renderer: renderer), failure: nil)
                } catch {
                    progress.finished(line: nil, failure: error.message)
                }
            }
        }
        return progress.summarise(into: outputDirectory)
    }
}

/// Hands out 0, 1, 2, … to worker threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The next number, or nil once `limit` is reached.
    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// What a batch has done so far: a progress bar on a terminal (standard error), plain lines otherwise.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let onTerminal: Bool
    private var done = 0
    private var failures: [String] = []

    init(total: Int, onTerminal: Bool) {
        self.total = total
        self.onTerminal = onTerminal
    }

    /// Records one file: its report line, or its failure (always shown, one line on standard error).
    func finished(line: String?, failure: String?) {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        if let failure {
            failures.append(failure)
            if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            FileHandle.standardError.write(Data("backdrop: error: \(failure)\n".utf8))
        } else if let line, !onTerminal {
            print(line)
        }
        if onTerminal { Self.draw(done: done, total: total, label: "\(done)/\(total)") }
    }

    /// Redraws the progress bar on standard error (a terminal): 30 cells, then `label`.
    static func draw(done: Int, total: Int, label: String) {
        let filled = min(done, total) * 30 / max(total, 1)
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(label)\u{1B}[K".utf8))
    }

    /// Prints the summary; true when nothing failed.
    func summarise(into directory: String) -> Bool {
        if onTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
        print(
            "rendered \(total - failures.count) of \(Plural.count(total, "file")) into \(directory)\(failures.isEmpty ? "" : "; \(failures.count) failed")"
        )
        return failures.isEmpty
    }
}
