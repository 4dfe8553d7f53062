import ArgumentParser
import Backdrop
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a rendered PNG with its golden image under a tolerance; exit 0 within it, 1 outside.",
        discussion: """
            Reports PSNR (4 channels, peak 255; the color of pixels transparent in both is ignored), the largest \
            channel difference in levels, and how many pixels differ. Every limit given must hold: --min-psnr, \
            --max-diff, --max-differing-pixels, --max-differing-ratio, --min-ssim (mean SSIM on luma); with none \
            the pictures must be identical. Which pixels differ: by default any whose channel moves by more than \
            --pixel-threshold levels (0; raise it to forgive dithering noise); with --threshold or --include-aa, \
            pixelmatch 7.2.0's rule, as Playwright and jest-image-snapshot count (YIQ colour distance, 0-1, \
            default 0.1; anti-aliased pixels left out unless --include-aa). --ignore leaves rectangles out of every \
            measure. --diff writes a picture of the differences: under the channel rule the expected picture dimmed \
            to grey with every differing pixel in red (one level already plain, 16 levels or more full red); under \
            pixelmatch's rule pixelmatch's picture (differences red, anti-aliasing yellow, the rest faded).

            Exit codes: 0 within the tolerance · 1 outside it (different sizes included) · 2 usage, or an input \
            that cannot be read.

            Examples:
              backdrop compare golden.png out.png --min-psnr 40
              backdrop compare golden.png out.png --max-diff 1 --diff diff.png
              backdrop compare golden.png out.png --frame 50,100,500,200 --format json
              backdrop compare golden.png out.png --pixel-threshold 1 --ignore 0,0,320,20
              backdrop compare golden.png out.png --max-differing-ratio 0.001
              backdrop compare golden.png out.png --min-ssim 0.99
              backdrop compare golden.png out.png --threshold 0.2 --max-differing-pixels 10
            """ + OutputGlossary.comparison
    )

    @Argument(help: ArgumentHelp("The golden (expected) PNG.", valueName: "expected"))
    var expected: String

    @Argument(help: ArgumentHelp("The PNG to check.", valueName: "actual"))
    var actual: String

    @Option(
        name: .customLong("min-psnr"), parsing: .unconditional,
        help: ArgumentHelp("Fail below this PSNR, in dB.", valueName: "dB"))
    var minPSNR: Double?

    @Option(
        name: .customLong("max-diff"), parsing: .unconditional,
        help: ArgumentHelp("Fail when any channel differs by more levels than this.", valueName: "levels"))
    var maxDiff: Int?

    @Option(
        name: .customLong("max-differing-pixels"), parsing: .unconditional,
        help: ArgumentHelp("Fail when more pixels than this differ.", valueName: "count"))
    var maxDifferingPixels: Int?

    @Option(
        name: .customLong("max-differing-ratio"), parsing: .unconditional,
        help: ArgumentHelp("Fail when a larger share (0–1) of the pixels differs.", valueName: "ratio"))
    var maxDifferingRatio: Double?

    @Option(
        name: .customLong("pixel-threshold"), parsing: .unconditional,
        help: ArgumentHelp(
            "Levels a channel may move before its pixel counts as differing (default 0).", valueName: "levels"))
    var pixelThreshold: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Count differing pixels by pixelmatch's rule with this YIQ threshold, 0–1 (default 0.1; Playwright's 0.2).",
            valueName: "0-1"))
    var threshold: Double?

    @Flag(
        name: .customLong("include-aa"),
        help: "Count differing pixels by pixelmatch's rule, anti-aliased pixels included (pixelmatch's includeAA).")
    var includeAA = false

    @Option(
        name: .customLong("min-ssim"), parsing: .unconditional,
        help: ArgumentHelp("Fail below this mean SSIM on luma (11×11 Gaussian window, σ 1.5).", valueName: "ssim"))
    var minSSIM: Double?

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Leave this rectangle, x,y,w,h in pixels, out of every measure (repeatable).", valueName: "x,y,w,h"))
    var ignore: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Compare only this region, x,y,w,h in pixels (default: the whole picture).", valueName: "x,y,w,h"))
    var frame: String?

    @Option(help: ArgumentHelp("Write a picture of the differences here (PNG, atomically).", valueName: "diff.png"))
    var diff: String?

    @Option(help: ArgumentHelp("text or json.", valueName: "format"))
    var format: TableFormat = .text

    func run() throws {
        if let maxDiff, maxDiff < 0 { throw BackdropError(.badOption, "--max-diff must be 0 or more") }
        if let minPSNR, minPSNR.isNaN { throw BackdropError(.badOption, "--min-psnr must be a number") }
        let region = try frame.map { text throws(BackdropError) in try PixelRect.parsed(text, as: "--frame") }
        let ignored = try ignore.map { text throws(BackdropError) in try PixelRect.parsed(text, as: "--ignore") }
        let tolerance = Tolerance(
            minimumPSNR: minPSNR, maximumDifference: maxDiff, maximumDifferingPixels: maxDifferingPixels,
            maximumDifferingRatio: maxDifferingRatio, pixelThreshold: pixelThreshold, minimumSSIM: minSSIM,
            ignore: ignored.isEmpty ? nil : ignored, threshold: threshold, includeAA: includeAA ? true : nil)
        if let threshold, !(0...1).contains(threshold) {
            throw BackdropError(.badOption, "--threshold \(threshold) is outside 0…1 (pixelmatch's colour distance)")
        }
        if pixelThreshold != nil, threshold != nil || includeAA {
            throw BackdropError(
                .badOption,
                "--pixel-threshold (channel levels) and --threshold/--include-aa (pixelmatch's rule) count pixels differently: give one"
            )
        }
        try tolerance.validate()
        let (expectedImage, actualImage) = try Self.readPair(expected, actual)
        let report = try GoldenComparison(
            expected: expectedImage, actual: actualImage, region: region, tolerance: tolerance)
        if let diff, let picture = report.diffPicture(expected: expectedImage, actual: actualImage) {
            // Exit 2 like unreadable input: 1 means "outside the tolerance". Never over a picture compared.
            if InputFile.same(diff, expected) || InputFile.same(diff, actual) {
                throw BackdropError(.badOption, "--diff \(diff): is one of the pictures compared; give another path")
            }
            do {
                try PNGEncoder().write(picture, to: diff)
            } catch {
                throw BackdropError(.badOption, error.message)
            }
        }
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            printJSON(
                String(
                    decoding: try encoder.encode(CompareRecord(expected: expected, actual: actual, report: report)),
                    as: UTF8.self))
        } else {
            print("\(report.passed ? "ok" : "FAIL")  \(actual) against \(expected): \(report.summary)")
        }
        if !report.passed { throw ExitCode(1) }
    }

    /// Decodes the two pictures; files with the same bytes are decoded once (the pair is then identical, found so
    /// at once by ``GoldenComparison``).
    static func readPair(_ expected: String, _ actual: String) throws(BackdropError) -> (
        RGBAImage<UInt8>, RGBAImage<UInt8>
    ) {
        let first = try readBytes(expected)
        let second = try readBytes(actual)
        let expectedImage = try decode(first, name: expected)
        if first == second { return (expectedImage, expectedImage) }
        return (expectedImage, try decode(second, name: actual))
    }

    /// A PNG file's bytes. Unreadable input is exit 2.
    static func readBytes(_ path: String) throws(BackdropError) -> [UInt8] {
        do {
            return try InputFile.bytes(of: path)
        } catch {
            throw BackdropError(.badOption, error.message)
        }
    }

    static func decode(_ bytes: [UInt8], name: String) throws(BackdropError) -> RGBAImage<UInt8> {
        do {
            return try ImageDecoder().decode(bytes, name: name)
        } catch {
            throw BackdropError(.badOption, error.message)
        }
    }
}

/// `backdrop compare --format json`.
struct CompareRecord: Encodable {
    let expected: String
    let actual: String
    let passed: Bool
    let sizes: [PixelSize]
    let region: PixelRect?
    /// nil when the pictures are identical (infinite PSNR) or of different sizes.
    let psnr: Double?
    let maxDifference: Int?
    let differingPixels: Int?
    /// Pixels over pixelmatch's threshold found to be anti-aliasing (under pixelmatch's rule only).
    let antiAliasedPixels: Int?
    /// pixelmatch's threshold and includeAA, when its rule counted the pixels.
    let threshold: Double?
    let includeAA: Bool?
    let pixelCount: Int?
    /// Mean SSIM on luma, when the tolerance asked for it.
    let ssim: Double?
    let tolerance: String
    let summary: String

    init(expected: String, actual: String, report: GoldenComparison) {
        self.expected = expected
        self.actual = actual
        passed = report.passed
        sizes = [report.expectedSize, report.actualSize]
        region = report.region
        psnr = report.difference.flatMap { $0.psnr.isFinite ? $0.psnr : nil }
        maxDifference = report.difference?.maxDifference
        differingPixels = report.difference?.differingPixels
        let rule = report.tolerance.perceptualRule
        antiAliasedPixels = rule == nil ? nil : report.difference?.antiAliasedPixels
        threshold = rule?.threshold
        includeAA = rule?.includeAntiAliased
        pixelCount = report.difference?.pixelCount
        ssim = report.ssim
        tolerance = report.tolerance.description
        summary = report.summary
    }
}
