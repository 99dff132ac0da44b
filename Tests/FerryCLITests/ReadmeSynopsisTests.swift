import FerryTestSupport
import Foundation
import Testing

/// README.md's synopsis of each command (its "Using `ferry`" block) names what `ferry <command>
/// --help` lists: every option there is one the command takes, and every option the command
/// takes is in its synopsis or among the README's common options.
@Suite struct ReadmeSynopsisTests {
    /// The options named in `text`: words that start with `-` and a letter or `--`, up to the
    /// first character that is not a letter, digit or `-` (`[--jobs N]`, `--strict|--lenient`).
    static func options(in text: String) -> Set<String> {
        var found: Set<String> = []
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let startsWord = i == 0 || !(characters[i - 1].isLetter || characters[i - 1].isNumber || characters[i - 1] == "-")
            if startsWord, characters[i] == "-", i + 1 < characters.count, characters[i + 1].isLetter || characters[i + 1] == "-" {
                var end = i + 1
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "-" { end += 1 }
                found.insert(String(characters[i..<end]))
                i = end
            } else {
                i += 1
            }
        }
        return found
    }

    /// Each command's synopsis in README.md, its description (after three spaces) left out.
    static func synopses() throws -> [String: String] {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Using `ferry`"))
        var result: [String: String] = [:]
        var command: String?
        for line in lines[(heading + 1)...].drop(while: { !$0.hasPrefix("    ferry ") }) {
            guard line.hasPrefix("    ") else { break }
            var text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("ferry ") {
                let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                command = String(words[1])
                text = words.count > 2 ? words[2].trimmingCharacters(in: .whitespaces) : ""
            }
            if let description = text.range(of: "   ") { text = String(text[..<description.lowerBound]) }
            if let command { result[command, default: ""] += " " + text }
        }
        return result
    }

    /// The options of README.md's "Common options" sentence.
    static func commonOptions() throws -> Set<String> {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "Common options:"))
        let end = try #require(readme.range(of: "`ferry <command> --help`", range: start.upperBound..<readme.endIndex))
        return options(in: String(readme[start.upperBound..<end.lowerBound]))
    }

    /// The options `ferry <command> --help` lists, each short name mapped to its long one.
    static func helpOptions(_ command: String) throws -> (options: Set<String>, long: [String: String]) {
        let help = try runFerry([command, "--help"])
        #expect(help.status == 0, "\(command)")
        var options: Set<String> = []
        var long: [String: String] = [:]
        let lines = help.stdout.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex(of: "OPTIONS:"))
        for line in lines[(first + 1)...].prefix(while: { !$0.isEmpty }) {
            // `  --jobs, -j N   Threads ...`: the names before the value and the help text.
            let names = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " ")[0...]
                .prefix { $0.hasPrefix("-") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            guard let name = names.first else { continue }
            options.insert(name)
            for alias in names.dropFirst() { long[alias] = name }
        }
        return (options, long)
    }

    @Test func eachSynopsisNamesWhatItsHelpLists() throws {
        let synopses = try Self.synopses()
        let common = try Self.commonOptions()
        #expect(Set(synopses.keys) == ["convert", "migrate", "validate", "inspect", "diff", "run", "schema", "formats", "stats", "head"])
        for (command, synopsis) in synopses.sorted(by: { $0.key < $1.key }) {
            let help = try Self.helpOptions(command)
            let named = Set(Self.options(in: synopsis).map { help.long[$0] ?? $0 })
            #expect(named.subtracting(help.options).isEmpty, "\(command): the README names options --help does not list")
            #expect(help.options.subtracting(named).subtracting(common).subtracting(["--help"]).sorted() == [],
                "\(command): --help lists options that README's synopsis and common options lack")
        }
    }
}
