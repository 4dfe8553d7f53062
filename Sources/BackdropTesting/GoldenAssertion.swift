import Backdrop
import Foundation
import Testing
import XCTest

/// Where golden pictures of a test file live: `__Goldens__/` beside the file, one PNG per name.
public func goldenPath(named name: String, testFile: String) -> String {
    let folder = (testFile as NSString).deletingLastPathComponent + "/__Goldens__"
    return folder + "/" + name + ".png"
}

/// Compares `image` with the golden picture `name` beside the calling test file, under `tolerance`, and reports a
/// failure to whichever test library is running the test: Swift Testing (an issue) or XCTest (a failure).
///
/// - A missing golden is recorded from `image`, and the test fails once saying so, as snapshot libraries do: a
///   golden nobody looked at should not pass silently. Set `record` to re-record an existing one.
/// - On a failure the expected, actual and diff pictures side by side (``GoldenArtifacts/threeUp(_:_:_:)``) are
///   written to `BACKDROP_ARTIFACTS` (default: the system's temporary folder), and the message says where.
/// - Returns whether the image matched (a recorded golden counts as no match).
@discardableResult
public func assertGolden(
    _ image: RGBAImage<UInt8>, named name: String, tolerance: Tolerance = Tolerance(), record: Bool = false,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    let path = goldenPath(named: name, testFile: "\(filePath)")
    func fail(_ message: String) -> Bool {
        if Test.current != nil {
            let location = SourceLocation(
                fileID: "\(filePath)", filePath: "\(filePath)", line: Int(line), column: Int(column))
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        } else {
            XCTFail(message, file: filePath, line: line)
        }
        return false
    }
    do throws(BackdropError) {
        if record || !FileManager.default.fileExists(atPath: path) {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try PNGEncoder().write(image, to: path)
            return fail("recorded the golden \(path): check it, then run the test again")
        }
        let golden = try PNGDecoder().decodeFile(path)
        let comparison = try GoldenComparison(expected: golden, actual: image, tolerance: tolerance)
        if comparison.passed { return true }
        let folder = ProcessInfo.processInfo.environment["BACKDROP_ARTIFACTS"] ?? NSTemporaryDirectory()
        let threeUp = folder + "/" + name + ".three-up.png"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PNGEncoder().write(
            GoldenArtifacts.threeUp(golden, image, comparison.diffPicture(expected: golden, actual: image)), to: threeUp
        )
        return fail("\(name) does not match \(path): \(comparison.summary); expected | actual | diff: \(threeUp)")
    } catch {
        return fail("\(name): \(error.message)")
    }
}
