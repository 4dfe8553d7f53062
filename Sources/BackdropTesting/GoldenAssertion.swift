import Backdrop
import Foundation
import Testing
import XCTest

/// Where golden pictures of a test file live: `__Goldens__/` beside the file, one PNG per name.
public func goldenPath(named name: String, testFile: String) -> String {
    let folder = PathComponents.folder(of: testFile) + "/__Goldens__"
    return folder + "/" + name + ".png"
}

/// Compares `image` with the golden picture `name` beside the calling test file, under `tolerance`, and reports a
/// failure to whichever test library is running the test: Swift Testing (an issue) or XCTest (a failure).
///
/// - Recording follows `recording`, or by default `BACKDROP_RECORD` (``GoldenRecording/from(environment:)``:
///   `missing` on a developer's machine, `never` when `CI` is set). A golden it writes fails the test once, saying
///   so, as snapshot libraries do: a golden nobody looked at should not pass silently. `record: true` is `.all`.
/// - On a failure the expected, actual and diff pictures side by side (``GoldenArtifacts/threeUp(_:_:_:)``) are
///   written to `BACKDROP_ARTIFACTS` (default: the system's temporary folder), in a folder of the test file and the
///   test (`GoldenTests/theToolbarMatches()/toolbar-light.three-up.png`), so that tests sharing a golden's name do
///   not overwrite each other's; the message says where.
/// - SwiftPM warns about files it does not handle in a test target: add `exclude: ["__Goldens__"]` to it.
/// - Returns whether the image matched (a recorded golden counts as no match).
@discardableResult
public func assertGolden(
    _ image: RGBAImage<UInt8>, named name: String, tolerance: Tolerance = Tolerance(), record: Bool = false,
    recording: GoldenRecording? = nil,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    let path = goldenPath(named: name, testFile: "\(filePath)")
    func fail(_ message: String) -> Bool { reportFailure(message, filePath: filePath, line: line, column: column) }
    do throws(BackdropError) {
        var mode = GoldenRecording.all
        if let recording, !record {
            mode = recording
        } else if !record {
            mode = try .from(environment: ProcessInfo.processInfo.environment)
        }
        let (verdict, golden) = try checkGolden(image, at: path, tolerance: tolerance, recording: mode)
        switch verdict {
        case .matched:
            return true
        case .recorded:
            return fail("recorded the golden \(path): check it, then run the test again")
        case .missing:
            return fail(
                "no golden \(path), and BACKDROP_RECORD is never (the default when CI is set): record it locally")
        case .mismatched(let comparison):
            let golden = golden ?? image
            let folder = goldenArtifactFolder(testFile: "\(filePath)", line: line)
            let threeUp = folder + "/" + name + ".three-up.png"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try PNGEncoder().write(
                GoldenArtifacts.threeUp(golden, image, comparison.diffPicture(expected: golden, actual: image)),
                to: threeUp)
            return fail("\(name) does not match \(path): \(comparison.summary); expected | actual | diff: \(threeUp)")
        }
    } catch {
        return fail("\(name): \(error.message)")
    }
}

/// Renders `request` — `backdrop render`'s options by the same names (``RenderRequest``, decodable from a golden
/// manifest case's JSON), its files as paths from the working directory — and compares the picture with the golden
/// `name` as ``assertGolden(_:named:tolerance:record:recording:filePath:line:column:)`` does. A request the CLI
/// refuses fails the test with the CLI's words. Returns whether the picture matched.
@discardableResult
public func assertGolden(
    rendering request: RenderRequest, named name: String, tolerance: Tolerance = Tolerance(), record: Bool = false,
    recording: GoldenRecording? = nil,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    do throws(BackdropError) {
        return assertGolden(
            try request.picture(files: .paths()), named: name, tolerance: tolerance, record: record,
            recording: recording, filePath: filePath, line: line, column: column)
    } catch {
        return reportFailure("\(name): \(error.message)", filePath: filePath, line: line, column: column)
    }
}

/// Reports a failure to whichever test library runs the test (Swift Testing or XCTest); returns false.
func reportFailure(_ message: String, filePath: StaticString, line: UInt, column: UInt) -> Bool {
    if Test.current != nil {
        let location = SourceLocation(
            fileID: "\(filePath)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    } else {
        XCTFail(message, file: filePath, line: line)
    }
    return false
}

/// Where a failing test's pictures go: `BACKDROP_ARTIFACTS` (or the temporary folder) / the test file's name / the
/// running Swift Testing test's name (under XCTest, which does not say, `line-N`). Characters other than letters,
/// digits, `-`, `_`, `.`, `(` and `)` become `_`.
public func goldenArtifactFolder(testFile: String, line: UInt) -> String {
    let root = ProcessInfo.processInfo.environment["BACKDROP_ARTIFACTS"] ?? NSTemporaryDirectory()
    let file = PathComponents.removingExtension(PathComponents.lastComponent(of: testFile))
    let test = Test.current?.name ?? "line-\(line)"
    func safe(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || "-_.()".contains($0) ? $0 : "_" })
    }
    return root + "/" + safe(file) + "/" + safe(test)
}
