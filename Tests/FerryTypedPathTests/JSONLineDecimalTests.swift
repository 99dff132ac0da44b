import FerryCore
import FerrySchemas
import FerryTestSupport
import Testing

@testable import FerryTypedPath

/// `JSONLineValidator.decimal` reads a number's value as it checks its grammar: it must end where
/// `number` ends, refuse what `number` refuses, and give bit for bit the double
/// `FieldReader.double(numberText:)` reads from the text whenever it gives one.
@Suite struct JSONLineDecimalTests {
    /// The decimal read at the start of `text`, and what `number` and the text reading give there.
    static func readings(_ text: [UInt8]) -> (decimal: (value: Double?, end: Int)?, numberEnd: Int?, textValue: Double?) {
        text.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return (nil, nil, nil) }
            let validator = JSONLineValidator(p: base, end: bytes.count, maximumDepth: 8)
            let numberEnd = validator.number(0)
            let textValue = numberEnd.flatMap { FieldReader.double(numberText: UnsafeBufferPointer(rebasing: bytes[0..<$0])) }
            return (validator.decimal(0), numberEnd, textValue)
        }
    }

    @Test func readsPlainDecimalsExactly() throws {
        let cases: [(text: String, value: Double, end: Int)] = [
            ("0", 0, 1), ("12.4", 12.4, 4), ("0.91", 0.91, 4), ("-3.75", -3.75, 5), ("100,", 100, 3), ("2.5}", 2.5, 3),
        ]
        for (text, value, end) in cases {
            let reading = try #require(Self.readings(Array(text.utf8)).decimal, "\(text)")
            #expect(reading.value?.bitPattern == value.bitPattern, "\(text)")
            #expect(reading.end == end, "\(text)")
        }
        // -0 reads as -0.0 (the field source then makes it 0, as for any reading).
        #expect(Self.readings(Array("-0".utf8)).decimal?.value?.sign == .minus)
    }

    @Test func leavesExponentsAndLongNumbersToTheTextReading() throws {
        for text in ["1e5", "1.5E-3", "-2e+2", "12345678901234567890", "9007199254740993", "0.1234567890123456789012"] {
            let reading = try #require(Self.readings(Array(text.utf8)).decimal, "\(text)")
            #expect(reading.value == nil, "\(text)")
            #expect(reading.end == text.utf8.count, "\(text)")
        }
    }

    @Test func refusesWhatTheGrammarRefuses() {
        for text in ["-", "01", ".5", "5.", "1e", "1e+", "+1", "-x", "", "00.1"] {
            #expect(Self.readings(Array(text.utf8)).decimal == nil, "\(text)")
        }
    }

    @Test func agreesWithTheGrammarAndTheTextReadingOnGeneratedNumbers() {
        var random = SplitMix(seed: 7)
        let alphabet = Array("0123456789-+.eE,]} x".utf8)
        for _ in 0..<50_000 {
            var text: [UInt8] = []
            // Mostly digits, with now and then a sign, a point, an exponent or a separator.
            for _ in 0..<(1 + random.next(24)) {
                let digit = UInt8(ascii: "0") + UInt8(random.next(10))
                text.append(random.next(4) == 0 ? alphabet[random.next(alphabet.count)] : digit)
            }
            let (decimal, numberEnd, textValue) = Self.readings(text)
            let shown = String(decoding: text, as: UTF8.self)
            #expect(decimal?.end == numberEnd, "\(shown)")
            if let value = decimal?.value { #expect(value.bitPattern == textValue?.bitPattern, "\(shown)") }
        }
    }
}
