import Foundation
import HealthModel
public import HealthWire

/// Asks the user about each type of a prompt, one yes/no question per type and access, and
/// builds the answer. Only an explicit yes authorizes; an empty line means no (the default
/// shown in "[y/N]"), so pressing Enter through the questions grants nothing.
public struct InteractivePromptAnswerer: Sendable {
    let io: CommandIO

    public init(io: CommandIO) {
        self.io = io
    }

    public func answer(_ prompt: AuthorizationPrompt) throws(HealthCtlError) -> PromptAnswer {
        let app = prompt.appDisplayName.isEmpty ? prompt.appID : prompt.appDisplayName
        io.output.writeLine(io.emphasized("Request \(prompt.requestID): \(app) (\(prompt.appID)) asks for access to your health data."))
        if !prompt.readTypes.isEmpty, !prompt.readUsageDescription.isEmpty {
            io.output.writeLine("  Why it reads: \(prompt.readUsageDescription)")
        }
        if !prompt.shareTypes.isEmpty, !prompt.shareUsageDescription.isEmpty {
            io.output.writeLine("  Why it writes: \(prompt.shareUsageDescription)")
        }
        var decisions: [GrantDecision] = []
        for type in prompt.readTypes {
            let allowed = try ask("Allow \(app) to READ \(TypeDisplayName.words(of: type))?", requestID: prompt.requestID)
            decisions.append(GrantDecision(type, .read, allowed ? .authorized : .denied))
        }
        for type in prompt.shareTypes {
            let allowed = try ask("Allow \(app) to WRITE \(TypeDisplayName.words(of: type))?", requestID: prompt.requestID)
            decisions.append(GrantDecision(type, .share, allowed ? .authorized : .denied))
        }
        return PromptAnswer(requestID: prompt.requestID, decisions: decisions)
    }

    /// Repeats the question until the line is a yes or a no.
    private func ask(_ question: String, requestID: UInt64) throws(HealthCtlError) -> Bool {
        while true {
            io.output.write("\(question) [y/N] ")
            guard let line = io.input.readLine() else {
                io.output.writeLine()
                throw .inputEnded(requestID: requestID)
            }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": return true
            case "", "n", "no": return false
            default: io.output.writeLine("Please answer y (allow) or n (deny).")
            }
        }
    }
}
