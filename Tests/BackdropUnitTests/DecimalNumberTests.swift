import Backdrop
import Testing

/// Numbers as people write them (issue 70 item 8): Swift's `Double(_:)` reads `0x10` as 16 and `nan` as a number.
@Suite("Decimal numbers")
struct DecimalNumberTests {
    @Test(arguments: [
        ("12", 12.0), ("-0.5", -0.5), (".5", 0.5), ("5.", 5.0), ("+3", 3.0), ("1e-3", 0.001), ("2E+2", 200.0),
    ])
    func decimalNumbersAreRead(text: String, value: Double) {
        #expect(DecimalNumber.parse(text) == value)
    }

    @Test(arguments: [
        "0x10", "0X1p4", "nan", "inf", "-infinity", "", "-", ".", "1e", "1e+", " 1", "1 ", "1,5", "1e999", "٣",
    ])
    func anythingElseIsNot(text: String) {
        #expect(DecimalNumber.parse(text) == nil, "\(text)")
    }
}
