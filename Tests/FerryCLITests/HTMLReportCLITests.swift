import FerryTestSupport
import Foundation
import Testing

/// `--report html` of validate, run, diff and stats: one self-contained page, its code frames,
/// its escaping, and a page of 1,000 diagnostics opened in headless Chromium when installed.
@Suite struct HTMLReportCLITests {
    /// A small notes file: two records with an error each (one past the first 80 columns, so its
    /// frame is cut on the left), one valid.
    static let twoErrors = """
        {"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [
          {"id": "w1", "title": "Riesling", "category": "white", "createdAt": "2024-05-01T09:30:00Z", "alcoholByVolume": 12,
           "look": {"tint": "straw", "note": ""}, "smells": [], "tastes": [], "grape": {"variety": "Riesling"}, "think": "", "rating": 7, "isFavorite": false},
          {"id": "w2", "title": 5, "category": "red", "createdAt": "2024-05-02T09:30:00Z", "alcoholByVolume": 13,
           "look": {"tint": "ruby", "note": ""}, "smells": [], "tastes": [], "grape": {"variety": "Syrah"}, "think": "", "rating": 4, "isFavorite": true},
          {"id": "w3", "title": "Chenin", "category": "white", "createdAt": "2024-05-03T09:30:00Z", "alcoholByVolume": 12.5,
           "look": {"tint": "gold", "note": ""}, "smells": [], "tastes": [], "grape": {"variety": "Chenin Blanc"}, "think": "", "rating": 5, "isFavorite": false}
        ]}

        """

    /// The whole page of a small validation, byte for byte.
    @Test func theValidationPageIsExactlyTheGolden() throws {
        let box = try Sandbox()
        try box.write("notes.json", Self.twoErrors)
        let run = try box.ferry(["validate", "notes.json", "--report", "html"])
        #expect(run.status == 1)
        expectGolden(run.stdout, "html/validate-notes.html")
    }

    /// The same run writes the same bytes; `SOURCE_DATE_EPOCH` is the only time the page names,
    /// and `--report-file` gets the page that standard output would.
    @Test func thePageIsDeterministicAndDatedOnlyBySourceDateEpoch() throws {
        let box = try Sandbox()
        try box.write("notes.json", Self.twoErrors)
        let first = try box.ferry(["validate", "notes.json", "--report", "html"])
        let second = try box.ferry(["validate", "notes.json", "--report", "html"])
        #expect(first.stdout == second.stdout)
        #expect(first.stdout.contains("<footer>Written by ferry 0.1.0.</footer>"))
        let dated = try box.ferry(["validate", "notes.json", "--report", "html", "--report-file", "r.html"], environment: ["SOURCE_DATE_EPOCH": "1714555800"])
        #expect(dated.stdout == "")
        #expect(try box.text("r.html") == first.stdout.replacingOccurrences(
            of: "<footer>Written by ferry 0.1.0.</footer>", with: "<footer>Written by ferry 0.1.0 on 2024-05-01T09:30:00Z.</footer>"))
    }

    /// Standard input is read once: its diagnostics are on the page without a frame, saying why.
    @Test func standardInputHasNoFrame() throws {
        let box = try Sandbox()
        let run = try box.ferry(["validate", "-", "--report", "html"], stdin: Self.twoErrors)
        #expect(run.status == 1)
        #expect(run.stdout.contains("<span class=\"where mono\">-:3:128 (record 0 of wineTastingNotes)</span></div>\n"
            + "<p class=\"message\"><code class=\"pointer\">/wineTastingNotes/0/rating</code> rating 7 is out of range 0...5 <span class=\"id\">(id &quot;w1&quot;)</span></p>\n"
            + "<p class=\"noframe\">No code frame: standard input is read once.</p>\n</li>\n"), "\(run.stdout)")
        #expect(!run.stdout.contains("<pre class=\"frame\">"))
    }

    /// Hostile text from the input is text on the page, never markup: a `<script>` element as a
    /// value and quotes in an id (in the message and in the code frame), a file name with `<`, a
    /// raw control character (shown as its Control Picture) and bytes that are not UTF-8 (U+FFFD).
    @Test func hostileTextIsEscapedInMessagesAndFrames() throws {
        let box = try Sandbox()
        try box.write("<i>.json", #"""
            {"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [
              {"id": "x\"'<b>", "title": "ok", "category": "red", "createdAt": "2024-05-01T09:30:00Z", "alcoholByVolume": 12, "rating": "<script>alert('x')</script>"}
            ]}

            """#)
        try box.write("ctl.json", bytes: Array(#"{"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [{"id": "a"#.utf8) + [0x07] + Array("b\r\"}]}\n".utf8))
        try box.write("utf8.json", bytes: Array(#"{"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [{"id": "bad "#.utf8) + [0xFF, 0xFE] + Array("\"}]}\n".utf8))
        let run = try box.ferry(["validate", "<i>.json", "ctl.json", "utf8.json", "--report", "html"])
        #expect(run.status == 3)
        let page = run.stdout
        #expect(!page.contains("<script>") && !page.contains("<b>") && !page.contains("<i>"))
        #expect(page.contains("<tr><td><a href=\"#f1\">&lt;i&gt;.json</a></td>"))
        #expect(page.contains("""
            <p class="message"><code class="pointer">/wineTastingNotes/0/rating</code> rating: expected a number, found &quot;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot; <span class="id">(id &quot;x\\&quot;&#39;&lt;b&gt;&quot;)</span></p>
            """), "\(page)")
        #expect(page.contains("""
            <span class="line focus"><span class="ln">2</span><span class="clip">&#8230;</span>:00Z&quot;, &quot;alcoholByVolume&quot;: 12, &quot;rating&quot;: <mark>&quot;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;</mark>}</span>
            """), "\(page)")
        #expect(page.contains("""
            <span class="line focus"><span class="ln">1</span>{&quot;domain&quot;: &quot;notes&quot;, &quot;schemaVersion&quot;: 2, &quot;wineTastingNotes&quot;: [{&quot;id&quot;: &quot;a<mark>\u{2407}b\u{240D}</mark>&quot;}]}</span>
            """), "\(page)")
        #expect(page.contains("""
            <span class="line focus"><span class="ln">1</span>{&quot;domain&quot;: &quot;notes&quot;, &quot;schemaVersion&quot;: 2, &quot;wineTastingNotes&quot;: [{&quot;id&quot;: &quot;bad <mark>\u{FFFD}\u{FFFD}</mark>&quot;}]}</span>
            """), "\(page)")
    }

    /// Every domain in every text format and bundle: V2 data checked as V1 has errors at
    /// positions all over; each diagnostic with a line and column has a frame whose focus line is
    /// that line, with something marked on it.
    @Test(arguments: ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-backup-restore.json"], ["json", "jsonl", "xml", "tar", "zip"])
    func everyPositionedDiagnosticHasItsFrame(sample: String, format: String) throws {
        let box = try Sandbox()
        try box.copySample(sample)
        let output = "v2.\(format)"
        #expect(try box.ferry(["convert", sample, "--to-version", "2", "--to", format, "-o", output, "--quiet"]).status == 0)
        let run = try box.ferry(["validate", output, "--schema-version", "1", "--report", "html"])
        #expect(run.status == 1)
        let items = run.stdout.components(separatedBy: "<li class=\"diagnostic ").dropFirst()
        #expect(items.count >= 4)
        var positioned = 0
        for item in items {
            let head = try #require(item.range(of: "<span class=\"where mono\">")).upperBound
            let position = item[head...].prefix { $0 != "<" && $0 != " " }
            let parts = position.split(separator: ":")
            guard parts.count >= 3, let line = Int(parts[parts.count - 2]), Int(parts[parts.count - 1]) != nil else { continue }
            positioned += 1
            #expect(item.contains("<span class=\"line focus\"><span class=\"ln\">\(line)</span>"), "\(item)")
            #expect(item.contains("<mark>"), "\(item)")
        }
        // Schema errors of these inputs all have a line and column.
        #expect(positioned == items.count)
    }

    /// Past 1,000 diagnostics with a line, an input's later diagnostics are listed without a
    /// frame, and the page says so; every one is still on the page.
    @Test func framesStopAtTheLimitAndThePageSaysSo() throws {
        let box = try Sandbox()
        try box.write("notes.json", HTMLReportBrowserTests.thousandErrors(1_003))
        let run = try box.ferry(["validate", "notes.json", "--report", "html", "--report-file", "r.html", "--max-errors", "0"])
        #expect(run.status == 1)
        let page = try box.text("r.html")
        #expect(page.components(separatedBy: "<li class=\"diagnostic error\"").count - 1 == 1_003)
        #expect(page.components(separatedBy: "<pre class=\"frame\">").count - 1 == 1_000)
        #expect(page.contains("<p class=\"capped\">Code frames are shown for the first 1000 diagnostics with a line; the other 3 are listed without one.</p>"))
        #expect(page.contains("<tr class=\"error\"><td><code>out-of-range</code></td><td><span class=\"severity\">error</span></td><td class=\"num\">1003</td><td><a href=\"#f1-d1\">#1</a></td></tr>"))
        #expect(page.contains("id=\"f1-d1003\""))
    }

    /// A notes dataset in `format`, with the rating of record w-002 made 9 (out of range 0...5).
    static func outOfRange(_ format: String) throws -> (name: String, bytes: [UInt8]) {
        switch format {
        case "json":
            return ("n.json", Array(try Fixtures.text("notes-v2.json").replacingOccurrences(of: "\"rating\": 5,", with: "\"rating\": 9,").utf8))
        case "jsonl":
            return ("n.jsonl", Array(try Fixtures.text("notes-v2.jsonl").replacingOccurrences(of: "\"rating\":5,", with: "\"rating\":9,").utf8))
        case "xml":
            return ("n.xml", Array(try Fixtures.text("notes-v2.xml").replacingOccurrences(of: "<rating>5</rating>", with: "<rating>9</rating>").utf8))
        default:
            return ("wineTastingNotes.csv", Array(try Fixtures.text("wineTastingNotes-v2.csv").replacingOccurrences(of: ",5,true", with: ",9,true").utf8))
        }
    }

    /// The first code frame of a page, its markup as written.
    static func firstFrame(_ page: String) -> String? {
        guard let start = page.range(of: "<pre class=\"frame\">"), let end = page.range(of: "</pre>", range: start.upperBound..<page.endIndex) else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }

    static let frames: [String: String] = [
        "json": """
            <span class="line"><span class="ln">70</span>      },</span>
            <span class="line"><span class="ln">71</span>      &quot;think&quot;: &quot;깊고 우아한 맛. 10년 더 숙성 가능.&quot;,</span>
            <span class="line focus"><span class="ln">72</span>      &quot;rating&quot;: <mark>9</mark>,</span>
            <span class="line"><span class="ln">73</span>      &quot;isFavorite&quot;: true</span>
            <span class="line"><span class="ln">74</span>    },</span>

            """,
        "jsonl": """
            <span class="line"><span class="ln">1</span><span class="clip">&#8230;</span></span>
            <span class="line"><span class="ln">2</span><span class="clip">&#8230;</span>abel&quot;:&quot;cherry&quot;},{&quot;label&quot;:&quot;oak&quot;}],&quot;tastes&quot;:[{&quot;label&quot;:&quot;acidity&quot;,&quot;value&quot;:0.7},{&quot;label&quot;:&quot;tannin&quot;,&quot;value&quot;:0.4}],&quot;grape&quot;:{&quot;var<span class="clip">&#8230;</span></span>
            <span class="line focus"><span class="ln">3</span><span class="clip">&#8230;</span>hink&quot;:&quot;깊고 우아한 맛. 10년 더 숙성 가능.&quot;,&quot;rating&quot;:<mark>9</mark>,&quot;isFavorite&quot;:true}</span>
            <span class="line"><span class="ln">4</span><span class="clip">&#8230;</span>&quot;grape&quot;:{&quot;variety&quot;:&quot;Grüner Veltliner&quot;},&quot;think&quot;:&quot;An older export: this note has no id, Ferry derives one.&quot;,&quot;rating&quot;:3.5,&quot;<span class="clip">&#8230;</span></span>
            <span class="line"><span class="ln">5</span><span class="clip">&#8230;</span></span>

            """,
        "xml": """
            <span class="line"><span class="ln">69</span>      &lt;/grape&gt;</span>
            <span class="line"><span class="ln">70</span>      &lt;think&gt;깊고 우아한 맛. 10년 더 숙성 가능.&lt;/think&gt;</span>
            <span class="line focus"><span class="ln">71</span>      <mark>&lt;rating&gt;</mark>9&lt;/rating&gt;</span>
            <span class="line"><span class="ln">72</span>      &lt;isFavorite&gt;true&lt;/isFavorite&gt;</span>
            <span class="line"><span class="ln">73</span>    &lt;/WineTastingNote&gt;</span>

            """,
        "csv": """
            <span class="line"><span class="ln">1</span><span class="clip">&#8230;</span>abel,smells.3.label,tastes.1.label,tastes.1.value,tastes.2.label,tastes.2.value,grape.variety,think,rating,isFavorite</span>
            <span class="line"><span class="ln">2</span><span class="clip">&#8230;</span>wkpAAAAEElEQVR42mNoENGAIwbiOAA3QwvBkGdCnwAAAABJRU5ErkJggg==,13.5,ruby,bright and clear,cherry,oak,,acidity,0.7,tannin,0.<span class="clip">&#8230;</span></span>
            <span class="line focus"><span class="ln">3</span><span class="clip">&#8230;</span>bernet Sauvignon,깊고 우아한 맛. 10년 더 숙성 가능.,<mark>9</mark>,true</span>
            <span class="line"><span class="ln">4</span><span class="clip">&#8230;</span> straw,green hints,white pepper,lime,,acidity,0.8,,,Grüner Veltliner,&quot;An older export: this note has no id, Ferry derive<span class="clip">&#8230;</span></span>
            <span class="line"><span class="ln">5</span><span class="clip">&#8230;</span>ir,Summer wine.,4,false</span>

            """,
    ]

    /// Each text format's frame: the lines around the diagnostic read back from the file, the
    /// value at its column marked.
    @Test(arguments: ["json", "jsonl", "csv", "xml"])
    func theCodeFrameShowsTheSourceLinesWithTheValueMarked(format: String) throws {
        let box = try Sandbox()
        let input = try Self.outOfRange(format)
        try box.write(input.name, bytes: input.bytes)
        var arguments = ["validate", input.name, "--report", "html"]
        if format == "csv" { arguments += ["--domain", "notes", "--schema-version", "2"] }
        let run = try box.ferry(arguments)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(Self.firstFrame(run.stdout) == Self.frames[format], "\(Self.firstFrame(run.stdout) ?? run.stdout)")
    }

    /// A member of a bundle, tar, zip or folder, is read back for its frame.
    @Test(arguments: ["tar", "zip", "folder"])
    func theCodeFrameOfABundleMemberIsReadFromTheBundle(container: String) throws {
        let box = try Sandbox()
        try box.write("n.json", try Fixtures.text("notes-v2.json"))
        #expect(try box.ferry(["convert", "n.json", "--to", "tar", "-o", "b/"]).status == 0)
        let member = try box.text("b/data/wineTastingNotes.json")
        try box.write("b/data/wineTastingNotes.json", member.replacingOccurrences(of: "\"rating\": 5,", with: "\"rating\": 9,"))
        var input = "b"
        if container != "folder" {
            // Packed by the usual tools, as an edited bundle would be.
            let tool = try #require(toolOnPath(container))
            let arguments = container == "tar" ? ["cf", "../b.tar"] : ["-q", "-X", "-r", "../b.zip"]
            let made = try runTool(tool, arguments + (try box.list("b")), in: box.url.appendingPathComponent("b"))
            #expect(made.status == 0, "\(made.output)")
            input = "b.\(container)"
        }
        let run = try box.ferry(["validate", input, "--report", "html"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("<span class=\"where mono\">\(input):data/wineTastingNotes.json:\(Self.memberPosition) (record 1 of wineTastingNotes)</span>"), "\(run.stdout)")
        #expect(Self.firstFrame(run.stdout) == Self.memberFrame, "\(Self.firstFrame(run.stdout) ?? run.stdout)")
    }

    /// The member is the JSON document `convert` wrote: its frame is the JSON cell's.
    static let memberPosition = "72:17"
    static var memberFrame: String? { frames["json"] }
}

/// The HTML pages of diff, stats and run.
@Suite struct HTMLReportPagesCLITests {
    /// The V1 Documents folder against the edited V2 tar (three records edited, a story removed,
    /// a photo replaced): the side-by-side tables, lists and media rows, byte for byte.
    @Test func theDiffPageIsExactlyTheGolden() throws {
        let box = try DiffCLITests().petsPair()
        let run = try box.ferry(["diff", "docs", "new.tar", "--report", "html"])
        #expect(run.status == 1)
        #expect(run.stderr == "")
        expectGolden(run.stdout, "html/diff-pets.html")
    }

    /// The notes sample profiled: per collection a table with presence bars, length ranges and
    /// the most frequent values as SVG bars, byte for byte.
    @Test func theStatsPageIsExactlyTheGolden() throws {
        let box = try Sandbox()
        try box.write("notes.json", try Fixtures.text("notes-v2.json"))
        let run = try box.ferry(["stats", "notes.json", "--report", "html"])
        #expect(run.status == 0)
        expectGolden(run.stdout, "html/stats-notes.html")
    }

    /// `ferry run` writes the page to its report file: inputs named relative to the pipeline file,
    /// verdicts per input, frames read from the inputs wherever the run was started.
    @Test func theRunPageHasASectionAndFramesPerInput() throws {
        let box = try Sandbox()
        try box.write("job/in/good.json", try Fixtures.text("notes-v2.json"))
        try box.write("job/in/bad.json", try Fixtures.text("notes-v2.json").replacingOccurrences(of: "\"rating\": 5,", with: "\"rating\": 9,"))
        try box.write("job/pipeline.json", #"{"inputs": ["in/*.json"], "steps": [{"validate": {}}]}"#)
        let run = try box.ferry(["run", "job/pipeline.json", "--report", "html", "--report-file", "run.html"])
        #expect(run.status == 1, "\(run.stderr)")
        let page = try box.text("run.html")
        #expect(page.contains("<title>ferry run</title>"))
        #expect(page.contains("<p class=\"subtitle\">2 inputs: 1 valid, 1 invalid; 1 error, 0 warnings</p>"), "\(page)")
        #expect(page.contains("<tr><td><a href=\"#f1\">in/bad.json</a></td><td>notes</td><td>2</td><td>json</td><td class=\"num\">7 of 8</td><td class=\"num\">1</td><td class=\"num\">0</td><td class=\"num\">0</td><td><span class=\"verdict-bad\">invalid (exit 1)</span></td></tr>"), "\(page)")
        #expect(page.contains("<tr><td><a href=\"#f2\">in/good.json</a></td><td>notes</td><td>2</td><td>json</td><td class=\"num\">8</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">0</td><td><span class=\"verdict-ok\">valid</span></td></tr>"), "\(page)")
        #expect(HTMLReportCLITests.firstFrame(page) == HTMLReportCLITests.frames["json"])
        #expect(page.contains("<section class=\"file\" id=\"f2\">\n<h2>in/good.json</h2>\n"))
    }
}
