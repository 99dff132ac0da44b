import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatJSON

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> Value {
        try JSONText.parse(Array(text.utf8), options: ReadOptions(fileName: "t.json"))
    }

    private func failure(_ bytes: [UInt8]) -> FerryError? {
        ferryError { _ = try JSONText.parse(bytes, options: ReadOptions(fileName: "t.json")) }
    }

    private func failure(_ text: String) -> FerryError? { failure(Array(text.utf8)) }

    // MARK: - Values

    @Test func numbersKeepTheirExactText() throws {
        let value = try parse(#"[0, -0, 1.50, 1E+2, -12.5e-3, 18446744073709551616, 1.000000000000000005]"#)
        #expect(
            value
                == .array([
                    .number("0"), .number("-0"), .number("1.50"), .number("1E+2"), .number("-12.5e-3"),
                    .number("18446744073709551616"), .number("1.000000000000000005"),
                ]))
    }

    @Test func stringsAreUnescaped() throws {
        let value = try parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u65E5\uD834\uDD1E", "\u0000", "가나"]"#)
        #expect(value == .array([.string("a\"b\\c/d\u{8}\u{C}\n\r\t"), .string("é日𝄞"), .string("\u{0}"), .string("가나")]))
    }

    @Test func objectsKeepOrderAndDuplicates() throws {
        let value = try parse(#"{"b": 1, "a": true, "b": null, "c": {}, "d": []}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "b", "c", "d"])
        #expect(object.members[2].value == .null)
        #expect(object["c"] == .object(ValueObject()))
        #expect(object["d"] == .array([]))
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONText.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number("1")]))
        // The position after a byte order mark still starts at column 1.
        let error = try #require(failure([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)))
        #expect(error.diagnostic.location.position == TextPosition(line: 1, column: 4))
    }

    // MARK: - Exact positions

    @Test func trailingCommaInsideAnEnvelopeArray() throws {
        let error = try #require(failure(#"{"a": [1, 2,]}"#))
        #expect(error.diagnostic.code == .malformedJSON)
        #expect(error.diagnostic.location.description == "t.json:1:13")
        #expect(error.diagnostic.message == "trailing comma before ']'")
    }

    @Test func positionsOfCommonMistakes() throws {
        let cases: [(String, Diagnostic.Code, Int, Int, String)] = [
            (#"{"a": 1,}"#, .malformedJSON, 1, 9, "trailing comma before '}'"),
            (#"{"a" 1}"#, .malformedJSON, 1, 6, "expected ':' after object key, found '1'"),
            (#"{"a": 1 "b": 2}"#, .malformedJSON, 1, 9, "expected ',' or '}' after object member, found '\"'"),
            ("[1 2]", .malformedJSON, 1, 4, "expected ',' or ']' after array element, found '2'"),
            ("[01]", .malformedJSON, 1, 2, "a number cannot have leading zeros"),
            ("[1.]", .malformedJSON, 1, 4, "expected a digit after the decimal point, found ']'"),
            ("[\"abc", .malformedJSON, 1, 2, "unterminated string"),
            ("{} x", .malformedJSON, 1, 4, "unexpected 'x' after the top-level value"),
            ("{\n  \"a\": tru\n}", .malformedJSON, 2, 8, "invalid literal: expected true, false or null"),
            ("[\"日本語\", x]", .malformedJSON, 1, 9, "expected a value, found 'x'"),
            ("[\"가\" ,\n \"나\"\n x]", .malformedJSON, 3, 2, "expected ',' or ']' after array element, found 'x'"),
            (#"["x\uD800"]"#, .malformedJSON, 1, 4, "unpaired surrogate escape \\uD800 in a string (RFC 8259 section 8.2)"),
            (#"["\uDC00"]"#, .malformedJSON, 1, 3, "unpaired surrogate escape \\uDC00 in a string (RFC 8259 section 8.2)"),
            (#"["\x"]"#, .malformedJSON, 1, 3, "invalid escape sequence '\\x' in a string"),
            ("[\"a\tb\"]", .malformedJSON, 1, 4, "control character U+0009 must be escaped in a string"),
            ("[1,", .malformedJSON, 1, 4, "unexpected end of input, expected a value"),
            ("", .malformedJSON, 1, 1, "unexpected end of input, expected a JSON value"),
        ]
        for (text, code, line, column, message) in cases {
            let error = try #require(failure(text), "\(text)")
            #expect(error.diagnostic.code == code, "\(text)")
            #expect(error.diagnostic.location.position == TextPosition(line: line, column: column), "\(text)")
            #expect(error.diagnostic.message == message, "\(text)")
            #expect(error.diagnostic.location.file == "t.json")
        }
    }

    @Test func invalidUTF8IsAnEncodingErrorAtItsByte() throws {
        let bytes: [UInt8] = Array("[\"é".utf8) + [0xFF] + Array("b\"]".utf8)
        let error = try #require(failure(bytes))
        #expect(error.diagnostic.code == .invalidEncoding)
        #expect(error.diagnostic.location.position == TextPosition(line: 1, column: 4))
        #expect(error.diagnostic.message == "invalid UTF-8 byte 0xFF in a string")
        // After an escape (the slow path) too.
        let escaped: [UInt8] = Array("[\"\\n\n".utf8)
        let second = try #require(failure(Array("\n[\"\\n".utf8) + [0xC0, 0xAF] + Array("\"]".utf8)))
        #expect(second.diagnostic.code == .invalidEncoding)
        #expect(second.diagnostic.location.position == TextPosition(line: 2, column: 5))
        #expect(failure(escaped)?.diagnostic.code == .malformedJSON)
    }

    @Test func utf16IsRefused() throws {
        let withBOM: [UInt8] = [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]
        let error = try #require(failure(withBOM))
        #expect(error.diagnostic.code == .invalidEncoding)
        #expect(error.diagnostic.location.position == TextPosition(line: 1, column: 1))
        #expect(failure([0x00, 0x5B, 0x00, 0x5D])?.diagnostic.code == .invalidEncoding)
    }

    @Test func depthLimitIs512() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try parse(ok)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(failure(deep))
        #expect(error.diagnostic.code == .tooDeep)
        #expect(error.diagnostic.location.position == TextPosition(line: 1, column: 513))
        let objects = String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(failure(objects)?.diagnostic.code == .tooDeep)
    }

    @Test func deepInputDoesNotUseTheStackOnASmallThread() throws {
        // 100,000 opening brackets under a limit above them, on a thread with a 512 KiB stack: the
        // parser runs out of input (a syntax error), not out of stack.
        let text = Array(String(repeating: "[", count: 100_000).utf8)
        final class Box: @unchecked Sendable { var code: Diagnostic.Code? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.code = ferryError {
                _ = try JSONText.parse(text, options: ReadOptions(maximumDepth: 200_000))
            }?.diagnostic.code
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        #expect(box.code == .malformedJSON)  // ends before closing: a syntax error, not a crash
    }

    // MARK: - JSONTestSuite

    /// What Ferry does with each implementation-defined `i_` file (Docs/json.md "Accepted and refused").
    static let implementationDefined: [String: Diagnostic.Code?] = [
        "i_number_double_huge_neg_exp.json": nil,
        "i_number_huge_exp.json": nil,
        "i_number_neg_int_huge_exp.json": nil,
        "i_number_pos_double_huge_exp.json": nil,
        "i_number_real_neg_overflow.json": nil,
        "i_number_real_pos_overflow.json": nil,
        "i_number_real_underflow.json": nil,
        "i_number_too_big_neg_int.json": nil,
        "i_number_too_big_pos_int.json": nil,
        "i_number_very_big_negative_int.json": nil,
        "i_object_key_lone_2nd_surrogate.json": .malformedJSON,
        "i_string_1st_surrogate_but_2nd_missing.json": .malformedJSON,
        "i_string_1st_valid_surrogate_2nd_invalid.json": .malformedJSON,
        "i_string_UTF-16LE_with_BOM.json": .invalidEncoding,
        "i_string_UTF-8_invalid_sequence.json": .invalidEncoding,
        "i_string_UTF8_surrogate_U+D800.json": .invalidEncoding,
        "i_string_incomplete_surrogate_and_escape_valid.json": .malformedJSON,
        "i_string_incomplete_surrogate_pair.json": .malformedJSON,
        "i_string_incomplete_surrogates_escape_valid.json": .malformedJSON,
        "i_string_invalid_lonely_surrogate.json": .malformedJSON,
        "i_string_invalid_surrogate.json": .malformedJSON,
        "i_string_invalid_utf-8.json": .invalidEncoding,
        "i_string_inverted_surrogates_U+1D11E.json": .malformedJSON,
        "i_string_iso_latin_1.json": .invalidEncoding,
        "i_string_lone_second_surrogate.json": .malformedJSON,
        "i_string_lone_utf8_continuation_byte.json": .invalidEncoding,
        "i_string_not_in_unicode_range.json": .invalidEncoding,
        "i_string_overlong_sequence_2_bytes.json": .invalidEncoding,
        "i_string_overlong_sequence_6_bytes.json": .invalidEncoding,
        "i_string_overlong_sequence_6_bytes_null.json": .invalidEncoding,
        "i_string_truncated-utf-8.json": .invalidEncoding,
        "i_string_utf16BE_no_BOM.json": .invalidEncoding,
        "i_string_utf16LE_no_BOM.json": .invalidEncoding,
        "i_structure_500_nested_arrays.json": nil,
        "i_structure_UTF-8_BOM_empty_object.json": nil,
    ]

    private static func suiteFiles() throws -> [(name: String, bytes: [UInt8])]? {
        guard let dir = Fixtures.corpus("JSONTestSuite")?.appendingPathComponent("test_parsing") else { return nil }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: dir.appendingPathComponent($0)))) }
    }

    /// The outcome of reading `bytes` whole and through the streaming reader (1-byte reads for
    /// small files): nil when accepted, else the error.
    private func outcomes(_ bytes: [UInt8]) -> (whole: FerryError?, streamed: FerryError?) {
        let whole = ferryError { _ = try JSONText.parse(bytes) }
        let step = bytes.count < 4096 ? 1 : 4096
        let streamed = ferryError {
            _ = try drain(JSONDocumentReader(source: TrickleSource(bytes, step: step), chunkSize: 16))
        }
        return (whole, streamed)
    }

    @Test func everyYesFileIsAccepted() throws {
        guard let files = try Self.suiteFiles() else {
            print("skipped: JSONTestSuite corpus absent")
            return
        }
        let yes = files.filter { $0.name.hasPrefix("y_") }
        #expect(yes.count == 95)
        for file in yes {
            let (whole, streamed) = outcomes(file.bytes)
            #expect(whole == nil, "\(file.name): \(String(describing: whole))")
            #expect(streamed == nil, "\(file.name) streamed: \(String(describing: streamed))")
        }
    }

    @Test func everyNoFileIsRefusedWithAPosition() throws {
        guard let files = try Self.suiteFiles() else {
            print("skipped: JSONTestSuite corpus absent")
            return
        }
        let no = files.filter { $0.name.hasPrefix("n_") }
        #expect(no.count == 188)
        for file in no {
            let (whole, streamed) = outcomes(file.bytes)
            for (label, error) in [("whole", whole), ("streamed", streamed)] {
                let error = try #require(error, "\(file.name) \(label) was accepted")
                #expect(
                    [.malformedJSON, .invalidEncoding, .tooDeep].contains(error.diagnostic.code), "\(file.name) \(label)")
                #expect(error.diagnostic.location.line != nil, "\(file.name) \(label)")
                #expect(error.diagnostic.location.column != nil, "\(file.name) \(label)")
            }
            // Both paths agree on the code.
            #expect(whole?.diagnostic.code == streamed?.diagnostic.code, "\(file.name)")
        }
        let deep = try #require(no.first { $0.name == "n_structure_100000_opening_arrays.json" })
        let (whole, streamed) = outcomes(deep.bytes)
        #expect(whole?.diagnostic.code == .tooDeep)
        #expect(whole?.diagnostic.location.position == TextPosition(line: 1, column: 513))
        #expect(streamed?.diagnostic.code == .tooDeep)
        #expect(streamed?.diagnostic.location.position == TextPosition(line: 1, column: 513))
    }

    @Test func implementationDefinedFilesFollowTheDocumentedChoices() throws {
        guard let files = try Self.suiteFiles() else {
            print("skipped: JSONTestSuite corpus absent")
            return
        }
        let maybe = files.filter { $0.name.hasPrefix("i_") }
        #expect(Set(maybe.map(\.name)) == Set(Self.implementationDefined.keys))
        for file in maybe {
            let expected = Self.implementationDefined[file.name] ?? nil
            let (whole, streamed) = outcomes(file.bytes)
            #expect(whole?.diagnostic.code == expected, "\(file.name)")
            #expect(streamed?.diagnostic.code == expected, "\(file.name) streamed")
            if let whole {
                #expect(whole.diagnostic.location.position != nil, "\(file.name)")
            }
        }
        // Huge exponents are kept as text, never converted.
        let huge = try #require(files.first { $0.name == "i_number_real_pos_overflow.json" })
        #expect(try JSONText.parse(huge.bytes) == .array([.number("123123e100000")]))
    }

    @Test func transformFilesKeepNumberTextThroughParseAndEncode() throws {
        guard let dir = Fixtures.corpus("JSONTestSuite")?.appendingPathComponent("test_transform") else {
            print("skipped: JSONTestSuite corpus absent")
            return
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names.count == 22)
        for name in names {
            let bytes = Array(try Data(contentsOf: dir.appendingPathComponent(name)))
            if name.hasPrefix("string_") && name.contains("invalid_codepoint") {
                // Lone surrogates, escaped or raw, are refused (Docs/json.md).
                #expect(failure(bytes) != nil, "\(name)")
                continue
            }
            let value = try JSONText.parse(bytes)
            let expected = bytes.filter { $0 != 0x20 && $0 != 0x0A } + [0x0A]
            let encoded = try JSONText.encode(value, pretty: false)
            #expect(String(decoding: encoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(name)")
        }
    }
}
