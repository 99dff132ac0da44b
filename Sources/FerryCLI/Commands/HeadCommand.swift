import FerryCore
import FerryPipeline

/// `ferry head INPUT [-n N]`: the first records of each collection, on standard output in the
/// input's format (or `--to`); short for `ferry convert INPUT --limit N`.
struct HeadCommand: FerryCommand {
    static let configuration = CommandConfiguration(
        name: "head",
        abstract: "Print the first records of each collection (convert --limit N to standard output).",
        discussion: """
            Writes the first N records (default 10) of each collection to standard output, in the input's
            format unless --to names another, with the input's domain header: the same bytes as
            `ferry convert INPUT --limit N`; a bundle's records print as JSON.
            Reading stops once every collection that may still come has its N records: the records
            after that are not read, so their errors are not reported; a reference to a record not
            read is not said to dangle; a bundle's manifest counts and media are not checked. What
            may still come: a bundle's manifest collections, the one collection of a CSV file without
            a $collection column or of a top-level JSON array; in a JSON envelope, JSON Lines or XML
            any of the domain's, so such a file lacking one of them (or holding fewer than N of one)
            is read to its end (Docs/selection.md). Records read are checked as convert checks them:
            an invalid one prints its error and nothing is written (--lenient writes the valid ones).
            The records are held (in memory, past 16 MiB in $TMPDIR) until the run succeeds.
            """,
        arguments: "INPUT", argumentCount: 1...1,
        options: [
            OptionSpec(["--records", "-n"], .single, value: "N", help: "Records of each collection to print (default 10)."),
            OptionSpec(["--to"], .single, value: "FORMAT", help: "Output format; default: the input's."),
            OptionSpec(["--compact"], help: "JSON and XML documents: no indentation."),
            OptionSpec(["--where"], .single, value: "EXPR", help: "Only records matching an NSPredicate-format filter (as convert's --where)."),
            OptionSpec(["--var"], .repeating, value: "NAME=VALUE", help: "A value for $NAME in --where."),
            OptionSpec(["--skip"], .single, value: "N", help: "Leave out the first N records of each collection."),
            OptionSpec(["--select"], .repeating, value: "FIELDS", help: "Keep only these fields (JSON Pointers or dotted names, comma-separated)."),
        ] + CommonOptions.specs,
        exitCodes: ExitCodes.all)

    var convert: ConvertCommand

    init(_ arguments: ParsedArguments) throws {
        let count = try arguments.integer("records", in: 0...Int.max) ?? 10
        convert = try ConvertCommand(arguments, action: .convert, limit: count)
        convert.runner.summary = false
        // A preview: the reading ends once the selection is full (`RecordSelection.stopsWhenFull`).
        convert.request.selection?.stopsWhenFull = true
        // A bundle's records print as its default data format (JSON): a bundle (with its media)
        // cannot go to standard output.
        convert.request.printsBundlesAsData = true
        // No -o: a folder of several datasets is refused asking for one of them.
        convert.request.offersFolderOutput = false
    }

    func run() throws -> ExitStatus { try convert.run() }
}
