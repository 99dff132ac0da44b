import FerryCore
import FormatCSV
import FormatJSON
import FormatXML

extension FormatRegistry {
    /// Every adapter built into Ferry: a new format is a new target plus one line here.
    public static let builtIn = FormatRegistry([
        JSONFormat.descriptor,
        JSONLinesFormat.descriptor,
    ])
}
