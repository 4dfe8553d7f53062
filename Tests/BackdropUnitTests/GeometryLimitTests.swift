import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The bounds that keep pixel arithmetic inside `Int`, where numbers are read: every reader of
/// outside geometry refuses a value beyond ±``PixelRect/coordinateLimit``, and the checks that a library user can
/// reach with any `Int` answer instead of trapping.
@Suite("Pixel geometry: bounds where numbers are read")
struct GeometryLimitTests {
    let limit = PixelRect.coordinateLimit

    @Test func parsingRefusesValuesBeyondTheLimitAndKeepsThoseAtIt() throws {
        #expect(PixelRect(parsing: "1,0,9223372036854775807,10") == nil)
        #expect(PixelRect(parsing: "-9223372036854775808,0,1,1") == nil)
        #expect(PixelRect(parsing: "\(limit + 1),0,1,1") == nil)
        #expect(PixelRect(parsing: "0,0,\(limit),\(limit)") == PixelRect(x: 0, y: 0, width: limit, height: limit))
        #expect(PixelRect(parsing: "-\(limit),0,1,1") != nil)
        #expect(throws: BackdropError.self) { try PixelRect.parsed("0,0,\(limit + 1),1", as: "--frame") }
        #expect(throws: BackdropError.self) {
            try PixelRect.checked(x: 0, y: Int.min, width: 1, height: 1, as: "ignore")
        }
    }

    @Test func fitsAnswersForEveryIntInsteadOfTrapping() {
        let size = PixelSize(width: 100, height: 100)
        for rect in [
            PixelRect(x: 1, y: 0, width: .max, height: 10), PixelRect(x: .max, y: .max, width: .max, height: .max),
            PixelRect(x: .min, y: 0, width: .max, height: 1), PixelRect(x: 0, y: .min, width: 1, height: .max),
        ] {
            #expect(!rect.fits(in: size), "\(rect)")
        }
        #expect(PixelRect(x: 0, y: 0, width: 100, height: 100).fits(in: size))
    }

    @Test func aPlanRefusesFramesAndContentBeyondTheLimit() {
        let size = PixelSize(width: 64, height: 64)
        let wide = Effect(style: .light, frame: PixelRect(x: 1, y: 0, width: .max, height: 10))
        #expect(throws: BackdropError.self) { try RenderPlan(effect: wide, imageSize: size) }
        var far = Effect(style: .light)
        far.vibrancy = Vibrancy(x: .max, y: .min, contentSize: PixelSize(width: 8, height: 8))
        #expect(throws: BackdropError.self) { try RenderPlan(effect: far, imageSize: size) }
        #expect(throws: BackdropError.self) {
            try Vibrancy(
                contentSize: PixelSize(width: 8, height: 8), corner: "9223372036854775807,0", as: "--at", frame: nil)
        }
    }

    @Test func floatingPointCoordinatesBeyondTheLimitAreNil() {
        for value in [Double.infinity, -.infinity, .nan, 1e308, Double(limit) + 1] {
            #expect(PixelRect.coordinate(value) == nil, "\(value)")
        }
        #expect(PixelRect.coordinate(Double(limit)) == limit)
        #expect(PixelRect.coordinate(-2.5) == -3)  // to the nearest, ties away from zero
    }

    @Test func aViewOfAnyFiniteOrInfiniteSizeIsAnErrorUnlessItFits() throws {
        let device = try Device.lookup("iphone-5")
        for view in [(1e308, 1e308), (Double.infinity, 1), (Double.nan, 1), (1e-300, 1), (-5, 10)] {
            #expect(throws: BackdropError.self, "\(view)") {
                try Estimator().viewPixels(device: device, viewPoints: (width: view.0, height: view.1))
            }
        }
        #expect(
            try Estimator().viewPixels(device: device, viewPoints: (width: 320, height: 64))
                == PixelSize(width: 640, height: 128))
    }

    @Test func sceneGeometryFarOffTheScreenIsHeldAtTheLimit() {
        let far = PointRect(x: 1e11, y: -1e11, width: 320, height: 100).pixels(scale: 2)
        #expect(far.isWithinLimits && far.isEmpty)
        #expect(
            PointRect(x: 10, y: 20, width: 30, height: 40).pixels(scale: 2)
                == PixelRect(x: 20, y: 40, width: 60, height: 80))
    }

    @Test func aToleranceIgnoringBeyondTheLimitIsRefusedWhenReadAndWhenChecked() throws {
        let json = #"{"ignore": [[1, 0, 9223372036854775807, 10]]}"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Tolerance.self, from: Data(json.utf8)) }
        var tolerance = Tolerance()
        tolerance.ignore = [PixelRect(x: 1, y: 0, width: .max, height: 10)]
        #expect(throws: BackdropError.self) { try tolerance.validate() }
    }

    @Test func thePixelLimitAUserMaySetIsBoundedAndTheDecoderNeverAppliesMore() throws {
        #expect(throws: BackdropError.self) { try PNGDecoder.validate(maxPixels: .max) }
        #expect(throws: BackdropError.self) { try PNGDecoder.validate(maxPixels: 0) }
        try PNGDecoder.validate(maxPixels: PNGDecoder.largestMaxPixels)
        let square = headerOnlyPNG(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF)
        #expect(throws: BackdropError.self) { try PNGDecoder(maxPixels: .max).decode(square, name: "square.png") }
        do {
            _ = try PNGDecoder(maxPixels: .max).decode(square, name: "square.png")
        } catch {
            #expect(error.message.hasSuffix("over the limit of \(PNGDecoder.largestMaxPixels) pixels"))
        }
    }
}
