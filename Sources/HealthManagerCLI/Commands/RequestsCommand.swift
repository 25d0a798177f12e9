import ArgumentParser
import HealthModel
import HealthWire

/// `healthctl requests`: the permission prompts apps are waiting on, listed or answered.
struct RequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests",
        abstract: "List pending permission requests, or answer them.",
        discussion: """
            Without options, lists the pending requests. An app's request waits until you answer it.

            --answer asks about every pending request, type by type ("Allow Sleep Tracker to \
            READ Heart Rate? [y/N]"); only an explicit y allows.

            --id N answers one request without questions: --allow-all, --deny-all, or \
            --allow-read/--allow-share with the types to allow (every other type is denied).

            --wait first waits for a request to arrive (for request N with --id).

            Examples:
              healthctl requests
              healthctl requests --answer --wait --timeout 60
              healthctl requests --id 3 --allow-read heartRate --allow-share stepCount
              healthctl requests --id 3 --deny-all
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Answer every pending request interactively.")
    var answer = false

    @Flag(help: "Wait until a request is pending before listing or answering.")
    var wait = false

    @Option(help: ArgumentHelp("Give up waiting after this many seconds (with --wait).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("The request to answer non-interactively.", valueName: "N"))
    var id: UInt64?

    @Flag(help: "With --id: allow every type the request asks for.")
    var allowAll = false

    @Flag(help: "With --id: deny every type the request asks for.")
    var denyAll = false

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("With --id: types to allow reading; \(HealthTypeArgument.valueHelp).", valueName: "type"),
            completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var allowRead: [String] = []

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("With --id: types to allow writing.", valueName: "type"),
            completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var allowShare: [String] = []

    func validate() throws {
        let decisionFlags = [allowAll ? "--allow-all" : nil, denyAll ? "--deny-all" : nil,
                             allowRead.isEmpty ? nil : "--allow-read", allowShare.isEmpty ? nil : "--allow-share"]
            .compactMap { $0 }
        if answer, id != nil {
            throw ValidationError("--answer asks about every request; --id answers one without questions. Use one of them.")
        }
        if id == nil, let flag = decisionFlags.first {
            throw ValidationError("\(flag) needs --id N, the request to answer (see `healthctl requests`)")
        }
        if id != nil, decisionFlags.isEmpty {
            throw ValidationError("--id needs a decision: --allow-all, --deny-all, or --allow-read/--allow-share TYPE…")
        }
        if allowAll || denyAll, decisionFlags.count > 1 {
            throw ValidationError("\(decisionFlags.joined(separator: " and ")) contradict each other; give one decision")
        }
        if let timeout {
            if !wait { throw ValidationError("--timeout only applies to --wait") }
            if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        }
    }

    /// The decision the flags describe; nil when answering interactively or just listing.
    var policy: PromptDecisionPolicy? {
        guard id != nil else { return nil }
        if allowAll { return .allowAll }
        if denyAll { return .denyAll }
        return .allowOnly(read: allowRead, share: allowShare)
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        if wait {
            let wantedID = id
            try await PromptWaiter.waitForPrompt(
                from: client, timeout: timeout, describing: wantedID.map { "request \($0)" } ?? "request",
                where: { prompt in wantedID.map { prompt.requestID == $0 } ?? true })
        }
        let prompts = try await client.listRequests()
        if let id, let policy {
            try await answerOne(id, policy, prompts, client)
        } else if answer {
            try await answerInteractively(prompts, client)
        } else {
            list(prompts)
        }
    }

    private func list(_ prompts: [AuthorizationPrompt]) {
        let io = CommandIO.current
        if prompts.isEmpty {
            io.output.writeLine("No pending requests.")
        } else {
            io.output.write(Self.table(prompts).rendered(emphasize: io.emphasized))
        }
    }

    private func answerOne(_ id: UInt64, _ policy: PromptDecisionPolicy, _ prompts: [AuthorizationPrompt],
                           _ client: ManagerClient) async throws(HealthCtlError) {
        guard let prompt = prompts.first(where: { $0.requestID == id }) else {
            throw .requestNotPending(id: id, pending: prompts.map(\.requestID))
        }
        let answer = try policy.answer(to: prompt)
        try await client.answerRequest(answer)
        CommandIO.current.output.writeLine(Self.summary(of: answer, for: prompt))
    }

    private func answerInteractively(_ prompts: [AuthorizationPrompt], _ client: ManagerClient) async throws(HealthCtlError) {
        let io = CommandIO.current
        if prompts.isEmpty {
            io.output.writeLine("No pending requests.")
            return
        }
        let answerer = InteractivePromptAnswerer(io: io)
        for prompt in prompts {
            let answer = try answerer.answer(prompt)
            try await client.answerRequest(answer)
            io.output.writeLine(Self.summary(of: answer, for: prompt))
        }
    }

    static func table(_ prompts: [AuthorizationPrompt]) -> TextTable {
        var table = TextTable([.init("ID", .right), .init("APP"), .init("APP ID"), .init("READ"), .init("WRITE")])
        for prompt in prompts {
            table.append(["\(prompt.requestID)", prompt.appDisplayName, prompt.appID,
                          prompt.readTypes.map(TypeDisplayName.words(of:)).joined(separator: ", "),
                          prompt.shareTypes.map(TypeDisplayName.words(of:)).joined(separator: ", ")])
        }
        return table
    }

    /// "Request 3 (Sleep Tracker): allowed READ Heart Rate; denied WRITE Step Count."
    static func summary(of answer: PromptAnswer, for prompt: AuthorizationPrompt) -> String {
        func part(_ decision: AuthorizationDecision) -> String? {
            let matching = answer.decisions.filter { $0.decision == decision }
            guard !matching.isEmpty else { return nil }
            let verb = decision == .authorized ? "allowed" : "denied"
            let types = matching.map { "\($0.access == .read ? "READ" : "WRITE") \(TypeDisplayName.words(of: $0.typeIdentifier))" }
            return "\(verb) \(types.joined(separator: ", "))"
        }
        let app = prompt.appDisplayName.isEmpty ? prompt.appID : prompt.appDisplayName
        let parts = [part(.authorized), part(.denied)].compactMap { $0 }
        return "Request \(answer.requestID) (\(app)): \(parts.isEmpty ? "nothing to decide" : parts.joined(separator: "; "))."
    }
}
