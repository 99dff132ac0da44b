import FerryCore
import Foundation

/// The domains Ferry knows, by name: the three of SCHEMAS.md, registered at start through
/// `register(_:)` like any other, and an app's own (`Ferry.register(_:)` in the `Ferry` product).
/// Thread-safe: domains may be registered and looked up from any thread.
public final class DomainRegistry: @unchecked Sendable {
    /// The registry the pipeline, the CLI, detection and `Domain(rawValue:)` consult.
    public static let shared: DomainRegistry = {
        let registry = DomainRegistry()
        do {
            for definition: any DomainDefinition.Type in [NotesDomain.self, PetStoryDomain.self, VocabularyDomain.self] {
                try registry.register(definition)
            }
        } catch {
            preconditionFailure("the built-in domains have distinct names: \(error)")
        }
        return registry
    }()

    // Guards `definitions` and `order`; registration is rare, look-ups are per run, not per record.
    private let lock = NSLock()
    private var definitions: [String: any DomainDefinition.Type] = [:]
    private var order: [Domain] = []

    /// An empty registry (the shared one is the one Ferry uses).
    public init() {}

    /// Makes `definition`'s domain known under its name. Registering the same definition again
    /// does nothing.
    /// - Throws: `FerryError(.usage)` when the name is empty, holds whitespace or `/`, or another
    ///   definition is registered under it.
    public func register(_ definition: any DomainDefinition.Type) throws(FerryError) {
        let name = definition.name
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw FerryError(.usage, "domain name \(quoted: name) must be non-empty, without whitespace or '/'")
        }
        lock.lock()
        defer { lock.unlock() }
        if let known = definitions[name] {
            if ObjectIdentifier(known) == ObjectIdentifier(definition) { return }
            throw FerryError(.usage, "domain \(quoted: name) is already registered (by \(known))")
        }
        definitions[name] = definition
        order.append(Domain(definition))
    }

    /// The definition registered under `name`, nil when none is.
    public func definition(named name: String) -> (any DomainDefinition.Type)? {
        lock.lock()
        defer { lock.unlock() }
        return definitions[name]
    }

    /// The registered domains in registration order (the built-in ones first).
    public var domains: [Domain] {
        lock.lock()
        defer { lock.unlock() }
        return order
    }

    /// The names of the registered domains, comma-separated, for messages (`notes, pet-story, vocabulary`).
    public var namesList: String { domains.map(\.rawValue).joined(separator: ", ") }
}
