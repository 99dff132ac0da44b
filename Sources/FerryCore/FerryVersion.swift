/// Ferry's version (semantic versioning): the one place it is written. `ferry --version` prints
/// it, bundle manifests name it as their `generator` (`ferry 0.1.0`), and the `Ferry` library
/// gives it as `Ferry.version`. CHANGELOG.md lists what each version changed.
public enum FerryVersion {
    public static let current = "0.1.0"
}
