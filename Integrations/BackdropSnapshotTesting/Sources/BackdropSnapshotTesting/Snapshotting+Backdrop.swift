import Backdrop
import Foundation
import SnapshotTesting

extension Snapshotting where Value == RGBAImage<UInt8>, Format == Data {
    /// A picture as a PNG reference, compared under a Backdrop ``Tolerance`` (identical by default). It works where
    /// swift-snapshot-testing's own image strategies do not: on Linux.
    ///
    /// ```swift
    /// assertSnapshot(of: rendered, as: .backdropPNG(tolerance: Tolerance(minimumPSNR: 50)))
    /// ```
    public static func backdropPNG(tolerance: Tolerance = Tolerance()) -> Snapshotting {
        Snapshotting<Data, Data>(pathExtension: "png", diffing: .backdropPNG(tolerance: tolerance)) { $0 }
            .pullback { image in (try? PNGEncoder().encode(image)).map { Data($0) } ?? Data() }
    }

    /// An identical picture as a PNG reference.
    public static var backdropPNG: Snapshotting { backdropPNG() }
}

extension Diffing where Value == Data {
    /// PNG data compared as pictures under `tolerance`: nil when they match, else the figures and, for the reviewer,
    /// the expected | actual | diff picture as an attachment.
    public static func backdropPNG(tolerance: Tolerance) -> Diffing {
        Diffing.diff(
            toData: { $0 }, fromData: { $0 },
            diffV2: { old, new in
                do {
                    let expected = try PNGDecoder().decode([UInt8](old), name: "reference")
                    let actual = try PNGDecoder().decode([UInt8](new), name: "snapshot")
                    let comparison = try GoldenComparison(expected: expected, actual: actual, tolerance: tolerance)
                    if comparison.passed { return nil }
                    let picture = GoldenArtifacts.threeUp(
                        expected, actual, comparison.diffPicture(expected: expected, actual: actual))
                    let attachment = DiffAttachment.data(
                        Data(try PNGEncoder().encode(picture)), name: "expected-actual-diff.png")
                    return ("Backdrop: \(comparison.summary)", [attachment])
                } catch {
                    return ("Backdrop: \(error)", [])
                }
            })
    }
}
