import Backdrop
import BackdropTestSupport
import BackdropTesting
import Foundation
import Testing

/// `assertGolden`'s record switch, read from `BACKDROP_RECORD` (default `missing` on a
/// developer's machine, `never` on CI), and its pictures in a folder of their test.
@Suite("BackdropTesting: recording goldens")
struct GoldenRecordingTests {
    @Test func theModeComesFromBACKDROP_RECORDOrFromCI() throws {
        #expect(try GoldenRecording.from(environment: [:]) == .missing)
        #expect(try GoldenRecording.from(environment: ["CI": "true"]) == .never)
        #expect(try GoldenRecording.from(environment: ["CI": "1"]) == .never)
        #expect(try GoldenRecording.from(environment: ["CI": "false"]) == .missing)
        #expect(try GoldenRecording.from(environment: ["CI": ""]) == .missing)
        #expect(try GoldenRecording.from(environment: ["CI": "true", "BACKDROP_RECORD": "all"]) == .all)
        #expect(try GoldenRecording.from(environment: ["BACKDROP_RECORD": "failed"]) == .failed)
        #expect(throws: BackdropError.self) { try GoldenRecording.from(environment: ["BACKDROP_RECORD": "yes"]) }
        do {
            _ = try GoldenRecording.from(environment: ["BACKDROP_RECORD": "yes"])
        } catch {
            #expect(error.message == "BACKDROP_RECORD 'yes' is not one of never, missing, failed, all")
        }
    }

    @Test func eachModeRecordsWhatItSaysAndMakesTheGoldensFolder() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("new/suite/__Goldens__/panel.png").path
        let picture = noiseImage(width: 40, height: 30)
        let other = noiseImage(width: 40, height: 30, seed: 7)
        let exact = Tolerance()
        func verdict(_ image: RGBAImage<UInt8>, _ mode: GoldenRecording) throws -> String {
            switch try checkGolden(image, at: path, tolerance: exact, recording: mode).verdict {
            case .matched: return "matched"
            case .mismatched: return "mismatched"
            case .recorded: return "recorded"
            case .missing: return "missing"
            }
        }
        #expect(try verdict(picture, .never) == "missing")
        #expect(!FileManager.default.fileExists(atPath: path), "never wrote a golden")
        #expect(try verdict(picture, .missing) == "recorded")
        #expect(try PNGDecoder().decodeFile(path) == picture)
        #expect(try verdict(picture, .never) == "matched")
        #expect(try verdict(other, .missing) == "mismatched")
        #expect(try verdict(other, .never) == "mismatched")
        #expect(try PNGDecoder().decodeFile(path) == picture, "a mismatch re-recorded under missing or never")
        #expect(try verdict(other, .failed) == "recorded")
        #expect(try PNGDecoder().decodeFile(path) == other)
        #expect(try verdict(other, .failed) == "matched")
        #expect(try verdict(picture, .all) == "recorded")
        #expect(try PNGDecoder().decodeFile(path) == picture)
    }

    @Test func aFailingTestsPicturesGoInAFolderOfItsFileAndTest() {
        let folder = goldenArtifactFolder(testFile: "/x/Tests/GoldenTests/Toolbar Tests.swift", line: 12)
        #expect(folder.hasSuffix("/Toolbar_Tests/aFailingTestsPicturesGoInAFolderOfItsFileAndTest()"), "\(folder)")
    }
}
