import FerryCore
import Testing

@Suite struct NumberTextTests {
    @Test(arguments: [
        (13.0, "13"), (0.5, "0.5"), (1e-7, "1e-7"), (1e21, "1e+21"), (-0.0, "0"), (123.456, "123.456"),
        (1.5e300, "1.5e+300"), (0.000001, "0.000001"), (1e20, "100000000000000000000"), (-2.25, "-2.25"),
        (0.1 + 0.2, "0.30000000000000004"), (4.35, "4.35"), (1234567.0, "1234567"),
        (-9223372036854775808.0, "-9223372036854776000"),  // Int64.min: once trapped in abs()
        // Whole numbers of 16 digits below 2^53 (Swift's description writes them with `.0`), 2^53, 2^60.
        (2e15, "2000000000000000"), (-4503599627370497.0, "-4503599627370497"), (9007199254740991.0, "9007199254740991"),
        (9007199254740992.0, "9007199254740992"), (1152921504606846976.0, "1152921504606847000"),
    ])
    func ecmaScriptForm(value: Double, expected: String) {
        #expect(NumberText.ecmaScript(value) == expected)
    }

    @Test func nonFiniteHasNoForm() {
        #expect(NumberText.ecmaScript(.nan) == nil)
        #expect(NumberText.ecmaScript(.infinity) == nil)
    }

    @Test(arguments: [("1.0", true), ("10e0", true), ("1e2", true), ("1.5", false), ("1e-1", false), ("1.50e1", true)])
    func integralText(text: String, expected: Bool) {
        #expect(NumberText.isIntegral(text) == expected)
    }

    @Test func int64FromNumberTextNeverRounds() {
        #expect(Value.number("9223372036854775807").int64Value == Int64.max)
        #expect(Value.number("9223372036854775808").int64Value == nil)
        #expect(Value.number("1.0").int64Value == 1)
        #expect(Value.number("1.5").int64Value == nil)
    }
}
