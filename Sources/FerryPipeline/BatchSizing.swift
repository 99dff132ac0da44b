import FerryCore

/// How many raw records `ParallelConversion` asks for in its next batch: about `targetBytes` of
/// input, and of output rendered ahead, from the bytes a record took in the batches before, and
/// between `minimum` and `maximum` records.
///
/// Each batch costs the same to hand over whatever it holds (its slot and locks, its lane's
/// buffers, a worker woken, its memory freed by another thread than the one that made it), so a
/// fixed count of records made inputs of small records pay it more often per byte: a pet story's
/// JSON line is about 180 bytes, a wine note's 450. Large records keep the minimum, as before;
/// the batches in flight stay bounded by `ParallelConversion.cutsAnother`. The output counts
/// too: a wine note's CSV row of 190 bytes renders a JSON line of 450, and a lane batch's render
/// buffer past 128 KiB is a mapping of its own (`main.swift`), made and faulted in page by page
/// for every batch.
struct BatchSizing {
    /// The count of the first batch, and the fewest asked for.
    static let minimum = 128
    /// The most records asked for in one batch.
    static let maximum = 1024
    /// The input bytes, and the bytes rendered ahead, a batch aims at.
    static let targetBytes = 64 << 10

    /// The count to ask for next.
    private(set) var limit = minimum

    /// Takes the size of a batch just read: `items`, the items its reader made of it (a record or
    /// a problem each), from `batch.inputBytes` of input, rendering `rendered` bytes ahead.
    /// Batches of unknown size, and batches under half the count asked for (the input's or a
    /// collection's end), change nothing.
    mutating func observe(_ batch: any RecordBatch, items: Int, rendered: Int) {
        let input = batch.inputBytes
        guard input > 0, items > 0, items * 2 >= limit else { return }
        limit = min(max(Self.targetBytes * items / max(input, rendered), Self.minimum), Self.maximum)
    }
}
