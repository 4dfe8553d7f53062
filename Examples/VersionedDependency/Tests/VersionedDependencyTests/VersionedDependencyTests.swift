import Backdrop
import BackdropTesting
import Testing

/// Renders through the library and checks the picture with BackdropTesting's assertion: what a team's suite does
/// once Backdrop resolves as a versioned dependency.
@Test func theDemoPanelInDarkMatchesItsGolden() throws {
    let effect = Effect(style: .dark, frame: DemoImage.panel, scale: 2)
    let picture = try Renderer().render(DemoImage.make(), effect: effect)
    assertGolden(picture, named: "demo-panel-dark", tolerance: Tolerance(maximumDifference: 1))
}
