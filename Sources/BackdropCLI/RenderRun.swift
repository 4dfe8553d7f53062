import ArgumentParser
import Backdrop
import Foundation

/// What one `backdrop render` command does, whichever spelling asked for it (a mode's subcommand or today's
/// options): the request, the inputs and where the pictures go. The request validates itself
/// (``RenderRequest/validate(spelling:)``); this checks only what the command line adds (outputs, `--time`,
/// `--jobs`) and runs it.
struct RenderRun {
    /// What to draw; its `input` is the first of `inputs`.
    var request: RenderRequest
    /// The pictures to draw over: none for a scene, one with `output`, any number with `outputDirectory`.
    var inputs: [String]
    var output: String?
    var outputDirectory: String?
    /// What a batch (`outputDirectory`) writes; one output's format is its extension's.
    var outputFormat = OutputPictureFormat.png
    var jobs: Int = BatchRender.defaultJobs
    var timingRuns: Int?
    var encoding: EncodingOptions

    init(
        _ request: RenderRequest, inputs: [String], output: String?, outputDirectory: String? = nil,
        outputFormat: OutputPictureFormat = .png, jobs: Int = BatchRender.defaultJobs, timingRuns: Int? = nil,
        encoding: EncodingOptions
    ) {
        self.request = request
        self.request.input = inputs.first
        self.inputs = inputs
        (self.output, self.outputDirectory, self.outputFormat, self.jobs) = (
            output, outputDirectory, outputFormat, jobs
        )
        (self.timingRuns, self.encoding) = (timingRuns, encoding)
    }

    /// Checks every option before anything is written, then draws: one picture to `output` (and its timing), or a
    /// batch into `outputDirectory` (exit status 1 when any file failed).
    func run() throws {
        if encoding.force { AtomicFile.allowReplacingInputs() }
        if let timingRuns, !(1...10_000).contains(timingRuns) {
            throw BackdropError(.badOption, "--time \(timingRuns) is out of range (1…10000)")
        }
        if request.scene != nil {
            guard output != nil else { throw BackdropError(.badOption, "--scene needs -o PATH (and --device ID)") }
            if let name = [("--output-dir", outputDirectory != nil), ("--time", timingRuns != nil)].first(where: \.1)?
                .0
            {
                throw BackdropError(
                    .badOption, "--scene draws the scene's own layers and effect views: leave out \(name)")
            }
        }
        // The format written: one output's extension's, a batch's --output-format.
        let format =
            try outputDirectory == nil
            ? output.map { path throws(BackdropError) in try OutputPictureFormat(path: path) } : outputFormat
        if let quality = encoding.quality {
            try OutputPictureFormat.validate(quality: quality)
            if format == .png {
                throw BackdropError(
                    .badOption,
                    outputDirectory == nil
                        ? "--quality is for .jpg, .jpeg and .webp outputs"
                        : "--quality with --output-dir is for 'render batch … --output-format jpg' or webp")
            }
        }
        if request.scene == nil, let format, format != .png, let depth = request.depth, depth != 8 {
            throw BackdropError(.badOption, "--depth \(depth) is for PNG outputs (JPEG and WebP hold 8 bits a sample)")
        }
        let job = try renderJob()
        guard let outputDirectory else {
            guard inputs.count == 1 || request.scene != nil, let output else {
                throw BackdropError(
                    .badOption,
                    inputs.count == 1
                        ? "give -o PATH, or --output-dir DIR"
                        : "\(inputs.count) inputs need --output-dir DIR (-o is for one input)")
            }
            if !encoding.force, let input = inputs.first, InputFile.same(input, output) {
                throw BackdropError(.badOption, "\(output): is the input file; pass --force to overwrite it")
            }
            // With -o - standard output carries the PNG alone, so the report lines go to standard error.
            let report: (String) -> Void =
                output == StandardStreams.name
                ? { FileHandle.standardError.write(Data(($0 + "\n").utf8)) } : { print($0) }
            report(try job.render(inputs.first, to: output, status: .forStandardError()))
            if let timingRuns, let input = inputs.first {
                report(try job.timing(of: input, runs: timingRuns))
            }
            return
        }
        guard output == nil else { throw BackdropError(.badOption, "give -o or --output-dir, not both") }
        guard timingRuns == nil else {
            throw BackdropError(.badOption, "--time is for one input (-o), not --output-dir")
        }
        guard (1...64).contains(jobs) else { throw BackdropError(.badOption, "--jobs \(jobs) is out of range (1…64)") }
        let batch = try BatchRender(
            inputs: inputs, outputDirectory: outputDirectory, format: outputFormat, force: encoding.force)
        if !batch.run(job, jobs: jobs) { throw ExitCode(1) }
    }

    /// Everything but the file names, checked once before any input is read: the request prepared (its vibrant
    /// content, mask or scene read), the threads, the encoder.
    func renderJob() throws(BackdropError) -> RenderJob {
        try PNGDecoder.validate(maxPixels: encoding.maxPixels)
        let decoder = ImageDecoder(maxPixels: encoding.maxPixels)
        let parallelism = try encoding.threads.resolve()
        return RenderJob(
            prepared: try request.prepare(files: .paths(decoder: decoder), spelling: .option), decoder: decoder,
            encoder: PNGEncoder(compression: encoding.compression, threads: parallelism.threads),
            quality: encoding.quality ?? OutputPictureFormat.defaultQuality,
            renderer: Renderer(parallelism: parallelism))
    }
}

/// A `backdrop render` command of any spelling: what it asks for, as one ``RenderRun``.
protocol RenderSpelling: ParsableCommand {
    var renderRun: RenderRun { get }
}

extension RenderSpelling {
    func run() throws { try renderRun.run() }
}
