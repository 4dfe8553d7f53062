import Backdrop
import Foundation
import Testing

/// Each tool's blur and shadow radius as the σ of ``BlurUnits``'s sources (issue 66, item 3).
@Suite("Import: blur units")
struct BlurUnitsTests {
    @Test func eachToolsRadiusIsTheSigmaItsSourceSays() {
        #expect(BlurUnits.sigma(cssBlur: 10) == 10)
        #expect(BlurUnits.sigma(cssBoxShadowBlur: 10) == 5)
        #expect(BlurUnits.sigma(figmaShadowRadius: 24) == 12)
        #expect(BlurUnits.sigma(figmaBlurRadius: 32) == 16)  // Dev Mode's backdrop-blur-[16px] for 32
        #expect(BlurUnits.sigma(sketchShadowBlurRadius: 30) == 15)
        #expect(BlurUnits.sigma(sketchBlurRadius: 60) == 30)
        #expect(BlurUnits.sigma(caLayerShadowRadius: 4) == 4)
        #expect(abs(BlurUnits.sigma(androidBlurRadius: 10) - 6.2735) < 1e-9)
        #expect(BlurUnits.sigma(androidBlurRadius: 0) == 0)
    }
}
