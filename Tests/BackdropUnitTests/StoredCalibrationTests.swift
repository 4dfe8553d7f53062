import Backdrop
import Testing

/// The run-time model (BackdropScenes) stores what BackdropCalibration computes from the evidence, so that the
/// model does not depend on its evidence: these tests compute each stored value again and hold the two equal, as
/// `CostModelTests` does for the fit and the interval.
@Suite("Stored calibration")
struct StoredCalibrationTests {
    /// Each GPU generation's fill efficiency, from the measured fill rates.
    @Test func storedFillEfficienciesAreTheMeasurements() {
        let computed = GPUGeneration.fillEfficiencies(from: DeviceEvidence.fillRates)
        for generation in GPUGeneration.allCases {
            #expect(GPUGeneration.fillEfficiencies[generation] == computed[generation], "\(generation)")
        }
    }

    /// The largest shadow, layer count and offscreen pixels of the case studies' scenes.
    @Test func storedEnvelopeIsTheCaseStudies() {
        #expect(EvidenceCoverage.envelope == EvidenceCoverage.computedEnvelope())
    }
}
