import FerryCore
import Foundation

/// How diagnostics name inputs, CSV columns and thrown errors.
extension Converter {
    /// Adds the CSV column a field diagnostic is about (`tastes.1.value`, Miller's flattened name),
    /// as SCHEMAS.md "Positions" asks of CSV messages.
    @Sendable static func namingCSVColumn(_ diagnostic: Diagnostic) -> Diagnostic {
        guard let field = diagnostic.location.field, field.tokens.count > 2 else { return diagnostic }
        let column = JSONPointer(tokens: Array(field.tokens.dropFirst(2))).flattenedName
        guard !DiagnosticText.contains(diagnostic.message, "column '\(column)'") else { return diagnostic }
        var named = diagnostic
        named.message += " (column '\(column)')"
        return named
    }

    /// A folder's path without the trailing slashes it was given with (`docs/` is `docs`, as the
    /// bundle reader names it in diagnostics), so that one input has one name in every line.
    static func folderName(_ path: String) -> String {
        guard path.count > 1, path.hasSuffix("/") else { return path }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return path }
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    /// The diagnostic for an error thrown while converting.
    static func diagnostic(for error: any Error) -> Diagnostic {
        if let error = error as? FerryError { return error.diagnostic }
        return .error(.internalError, "unexpected error: \(error)")
    }
}
