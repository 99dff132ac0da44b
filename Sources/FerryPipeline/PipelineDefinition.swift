/// A batch job read from a pipeline file (`ferry run PIPELINE.json`): inputs, steps in order, one
/// output template and options. Paths and globs are relative to the pipeline file's folder.
///
/// ```json
/// {
///   "inputs": ["backups/*.json", "more/"],
///   "steps": [{"filter": "rating >= 4"}, {"migrate": {"toVersion": 2}}, {"validate": {}}],
///   "output": {"path": "out/{name}.tar", "format": "tar"},
///   "options": {"strict": false, "lenient": false, "jobs": 2, "timeZone": "UTC"}
/// }
/// ```
public struct PipelineDefinition: Codable, Sendable, Equatable {
    /// Files, folders (each dataset inside, or the folder itself when it is a bundle) and globs
    /// (`*`, `?`, `[...]`), each a string or `{"path": ..., "map": ...}` with a mapping of its own.
    public var inputs: [Input]
    /// The steps, applied in order.
    public var steps: [Step]
    /// Where each input's result goes; nil validates only.
    public var output: Output?
    public var options: Options?

    /// One input pattern, with an optional field mapping that applies to its files only.
    public struct Input: Codable, Sendable, Equatable {
        public var path: String
        /// A mapping file for these inputs, relative to the pipeline file; overrides a `map` step.
        public var map: String?

        public init(path: String, map: String? = nil) {
            self.path = path
            self.map = map
        }

        public init(from decoder: any Decoder) throws {
            if let path = try? decoder.singleValueContainer().decode(String.self) {
                self.init(path: path)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(path: try container.decode(String.self, forKey: .path), map: try container.decodeIfPresent(String.self, forKey: .map))
        }
    }

    /// One step of a pipeline: exactly one of its members is set.
    public struct Step: Codable, Sendable, Equatable {
        /// A field mapping file (Docs/mappings.md), relative to the pipeline file.
        public var map: String?
        /// A filter in NSPredicate format (Docs/filters.md), optionally `collection: expression`.
        public var filter: String?
        /// Migrate to a schema version.
        public var migrate: Migrate?
        /// Validate (always done; listing it documents the intent and runs it without a migration).
        public var validate: Validate?

        public struct Migrate: Codable, Sendable, Equatable {
            public var toVersion: Int
        }

        public struct Validate: Codable, Sendable, Equatable {}
    }

    /// The output of each input.
    public struct Output: Codable, Sendable, Equatable {
        /// A path template: `{name}` is the input's name without its extensions, `{ext}` the output
        /// format's extension (`out/{name}.tar`).
        public var path: String
        /// The output format; default: the template's extension.
        public var format: String?
    }

    /// Options for every input.
    public struct Options: Codable, Sendable, Equatable {
        public var strict: Bool?
        public var lenient: Bool?
        /// Inputs processed at once (default: the number of cores).
        public var jobs: Int?
        public var timeZone: String?
        public var dateStrategy: String?
        public var domain: String?
        public var schemaVersion: Int?
        public var collection: String?
        /// CSV input options.
        public var delimiter: String?
        public var nullToken: String?
        /// Output format of the data files inside a bundle output.
        public var dataFormat: String?
    }
}
