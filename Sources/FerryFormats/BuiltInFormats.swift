import FerryCore
import FormatBundle
import FormatCSV
import FormatJSON
import FormatXML
import Foundation

extension FormatRegistry {
    /// Every adapter built into Ferry: a new format is a new target plus one line here.
    public static let builtIn = FormatRegistry([
        JSONFormat.descriptor,
        JSONLinesFormat.descriptor,
        CSVFormat.tsvDescriptor,
        CSVFormat.descriptor,
        XMLFormat.descriptor,
        BundleFormat.descriptor,
        BundleFormat.zipDescriptor,
    ])
}

extension FormatRegistry {
    /// The built-in adapters plus the external `ferry-format-NAME` executables found on `PATH`
    /// (built-ins win a name clash). Adapters that fail to describe themselves go to `log`.
    /// - Parameter timeout: seconds of silence after which an external adapter is stopped.
    public static func withExternalAdapters(
        timeout: Double = 30, searchPath: String? = ProcessInfo.processInfo.environment["PATH"], log: DiagnosticLog? = nil
    ) -> FormatRegistry {
        var registry = builtIn
        var failed: [String] = []
        // External adapters exchange records with ferry as JSON Lines (DESIGN.md "External adapters").
        for adapter in ExternalFormatAdapter.discover(
            searchPath: searchPath, timeout: timeout, jsonLines: JSONLinesFormat.descriptor, log: log, failed: &failed)
        where !builtIn.formats.contains(where: { $0.name == adapter.name }) {
            registry.register(adapter)
        }
        registry.undescribedAdapters = failed
        return registry
    }
}
