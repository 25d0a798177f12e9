public import ArgumentParser

/// The root command. `execute(_:)` is the whole program: healthctl's `main.swift` only passes
/// it the arguments and exits with what it returns.
public struct HealthCtl: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "healthctl",
        abstract: "Manage your health data: answer apps' permission requests, edit grants, browse samples.",
        discussion: """
            healthctl talks to healthd, the broker that owns your health store, over its admin \
            socket.

            Shell completion: healthctl --generate-completion-script bash|zsh|fish

            Examples:
              healthctl status
              healthctl requests --answer --wait
              healthctl samples heartRate --from 2024-05-01
            """,
        subcommands: [
            StatusCommand.self, AppsCommand.self, RequestsCommand.self, ObjectRequestsCommand.self, ObjectGrantsCommand.self,
            GrantCommand.self, RevokeCommand.self, GrantsCommand.self, SamplesCommand.self,
            KeyCommand.self, PasscodeCommand.self, LockCommand.self, UnlockCommand.self, LogCommand.self, SourcesCommand.self,
            CharacteristicsCommand.self, UnitsCommand.self, MedicationsCommand.self,
            ActivityCommand.self, ImportCommand.self, ExportCommand.self, AddCommand.self, DeleteCommand.self, ReportCommand.self, ChartCommand.self,
            AttachmentsCommand.self, VerifiableRecordsCommand.self,
        ])

    public init() {}

    /// Parses `arguments` (without the program name), runs the command with `CommandIO.current`,
    /// and returns the exit status. Failures become one clear message on the error sink.
    public static func execute(_ arguments: [String]) async -> Int32 {
        let io = CommandIO.current
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return HealthCtlExitCode.success.rawValue
        } catch let error as HealthCtlError {
            ErrorLines.write(error, to: io.errors)
            return error.exitCode.rawValue
        } catch {
            // ArgumentParser's own outcomes: help, completion scripts, usage errors — and any
            // other error a command threw, which ArgumentParser describes.
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { io.output.writeLine(message) }
            } else {
                io.errors.writeLine(ErrorLines.argumentParserText(message: Self.message(for: error), full: message))
            }
            return code.rawValue
        }
    }
}
