import Backdrop
import BackdropSnapshotTesting
import BackdropTesting
import Foundation
import SnapshotTesting
import Testing
import XCTest

/// The built-in demo picture with the light style over a toolbar-sized frame: what these tests render.
func rendered() throws -> RGBAImage<UInt8> {
    let source = DemoImage.make()
    let effect = Effect(style: .light, frame: PixelRect(x: 0, y: 600, width: 1024, height: 168), scale: 2)
    return try Renderer().render(source, effect: effect)
}

@Test func theToolbarMatchesItsGoldenInSwiftTesting() throws {
    assertGolden(try rendered(), named: "toolbar-light", tolerance: Tolerance(minimumPSNR: 60))
}

@Test func theToolbarMatchesItsSnapshot() throws {
    assertSnapshot(of: try rendered(), as: .backdropPNG(tolerance: Tolerance(pixelThreshold: 1)))
}

final class ToolbarXCTests: XCTestCase {
    func testTheToolbarMatchesItsGoldenInXCTest() throws {
        assertGolden(try rendered(), named: "toolbar-light", tolerance: Tolerance(maximumDifference: 1))
    }
}
