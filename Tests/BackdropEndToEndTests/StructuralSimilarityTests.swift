import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Backdrop's SSIM against scikit-image's `structural_similarity` (gaussian_weights, σ 1.5, no sample covariance,
/// data range 255) on the same luma, within 10⁻⁶, on pairs of real renders.
@Suite("SSIM against scikit-image")
struct StructuralSimilarityTests {
    @Test func theMeanSSIMMatchesScikitImageWithinAMillionth() throws {
        let directory = try Fixtures.temporaryDirectory()
        let photo = Fixtures.path("photos/coffee.png")
        let pairs: [(String, [String], [String])] = [
            ("styles", ["--style", "light"], ["--style", "dark"]),
            ("frames", ["--style", "light"], ["--style", "light", "--frame", "20,20,400,300"]),
            ("exact", ["--style", "extraLight"], ["--style", "extraLight", "--exact"]),
        ]
        for (name, first, second) in pairs {
            let a = directory.appendingPathComponent("\(name)-a.png").path
            let b = directory.appendingPathComponent("\(name)-b.png").path
            #expect(try runCLI(["render", photo, "-o", a] + first).status == 0)
            #expect(try runCLI(["render", photo, "-o", b] + second).status == 0)
            let ours = StructuralSimilarity.mean(try PNGDecoder().decodeFile(a), try PNGDecoder().decodeFile(b))
            let script = """
                import sys, numpy as np
                from PIL import Image
                from skimage.metrics import structural_similarity
                def luma(path):
                    rgb = np.asarray(Image.open(path).convert('RGBA'), dtype=np.float64)[..., :3]
                    return 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
                print(structural_similarity(luma(sys.argv[1]), luma(sys.argv[2]), gaussian_weights=True, sigma=1.5,
                                            use_sample_covariance=False, data_range=255))
                """
            let result = try runProcess("/usr/bin/env", ["python3", "-c", script, a, b])
            #expect(
                result.status == 0,
                "scikit-image is missing or failed (scripts/install-deps --test installs it): \(result.output)")
            let theirs = try #require(
                Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.output)")
            print(String(format: "%@: Backdrop %.6f, scikit-image %.6f", name, ours, theirs))
            #expect(abs(ours - theirs) <= 1e-6, "\(name): \(ours) against \(theirs)")
        }
    }
}
