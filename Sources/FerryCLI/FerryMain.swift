import FerryCore
import FerryPipeline
import FerrySchemas
import Foundation

/// The `ferry` command line as a library: the executable's `main.swift` only calls `run`.
public enum FerryMain {
    /// The version printed by `--version`.
    public static let version = FerryVersion.current

    static var commands: [any FerryCommand.Type] {
        [
            ConvertCommand.self, MigrateCommand.self, ValidateCommand.self, InspectCommand.self, DiffCommand.self, RunCommand.self, SchemaCommand.self,
            FormatsCommand.self, StatsCommand.self, HeadCommand.self,
        ]
    }

    /// Runs the command line and returns the process exit status.
    /// - Parameter arguments: the arguments after the program name.
    public static func run(_ arguments: [String]) -> Int32 {
        CryptoLibrary.setUp()
        SignalHandling.install()
        UnbufferedWrite.resetOutputFailure()
        return checkingOutput(dispatch(arguments))
    }

    /// `status`, or `output-unwritable` (exit 5, said on standard error as a conversion to
    /// standard output says it) when a write to standard output failed for another reason than
    /// a closed pipe: what the command printed there did not all arrive. The highest status wins.
    private static func checkingOutput(_ status: Int32) -> Int32 {
        guard let code = UnbufferedWrite.outputFailure else { return status }
        let diagnostic = Diagnostic.error(.outputUnwritable, "write failed: \(String(cString: strerror(code)))",
                                          at: SourceLocation(file: "-"))
        StandardError.write(diagnostic.description + "\n")
        return max(ExitStatus(rawValue: status), .outputUnwritable).rawValue
    }

    private static func dispatch(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            StandardError.write(overview)
            return ExitStatus.usage.rawValue
        }
        switch name {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.configuration.name == arguments[1] }) {
                StandardOutput.write(HelpFormatter.help(command.configuration, sourceDateEpochStamps: command.sourceDateEpochStamps))
            } else {
                StandardOutput.write(overview)
            }
            return 0
        case "--version":
            StandardOutput.write("ferry \(version)\n")
            return 0
        default:
            break
        }
        guard let command = commands.first(where: { $0.configuration.name == name }) else {
            let names = commands.map { $0.configuration.name }
            let nearest = names.min { EditDistance.between($0, name) < EditDistance.between($1, name) }
            let hint = nearest.map { EditDistance.between($0, name) <= 2 ? "; did you mean '\($0)'?" : "" } ?? ""
            StandardError.write("ferry: error: unknown command '\(DiagnosticText.escaped(name))'\(hint)\n\n" + overview)
            return ExitStatus.usage.rawValue
        }
        let status = run(command, Array(arguments.dropFirst()))
        // Whatever a command left registered (an object still alive on an error path) goes now.
        TemporaryFiles.shared.finishRun()
        return status.rawValue
    }

    private static func run(_ type: any FerryCommand.Type, _ arguments: [String]) -> ExitStatus {
        let configuration = type.configuration
        do {
            let parsed = try ArgumentParser.parse(arguments, for: configuration)
            let command = try type.init(parsed)
            if type.readsSourceDateEpoch { _ = try SourceDateEpoch.seconds() }
            return try command.run()
        } catch let error as FerryError where error.diagnostic.location.description.isEmpty {
            // An error of the command line found before anything is read (a value that names
            // nothing known, an output that is an input, a bundle to standard output) stands at no
            // input: it is the command's, named as its usage errors name it.
            let diagnostic = error.diagnostic
            StandardError.write("ferry \(configuration.name): \(diagnostic.severity.rawValue): \(diagnostic.body) [\(diagnostic.code.rawValue)]\n")
            return error.exitStatus
        } catch is ArgumentParser.HelpRequested {
            StandardOutput.write(HelpFormatter.help(configuration, sourceDateEpochStamps: type.sourceDateEpochStamps))
            return .success
        } catch let error as UsageError {
            // The message quotes arguments, which may hold anything: escaped like every diagnostic.
            StandardError.write("ferry \(configuration.name): error: \(DiagnosticText.escaped(error.message))\nusage: \(HelpFormatter.usage(configuration))\n"
                + "See 'ferry \(configuration.name) --help'.\n")
            return .usage
        } catch let error as FerryError {
            StandardError.write(error.diagnostic.description + "\n")
            return error.exitStatus
        } catch {
            StandardError.write("ferry: error: unexpected error: \(DiagnosticText.escaped(String(describing: error))) [internal-error]\n")
            return .internalError
        }
    }

    static var overview: String {
        var out = "OVERVIEW: Ferry converts, migrates and validates personal-app data (JSON, JSON Lines, CSV, XML,\n"
        out += "tar and zip bundles with media folders).\n\n"
        out += "USAGE: ferry <command> [options]\n\nCOMMANDS:\n"
        for command in commands {
            out += "  " + command.configuration.name.padding(to: 10) + command.configuration.abstract + "\n"
        }
        out += "\nSee 'ferry <command> --help' for a command's options. 'ferry --version' prints the version.\n\n"
        return out + ExitCodes.help(ExitCodes.all) + "\n"
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
