import HealthIPC
public import HealthModel
public import HealthWire

/// The manager service of healthd over its admin socket, one typed function per method.
/// Every failure arrives as a `HealthCtlError` that says what was being attempted.
public struct ManagerClient: Sendable {
    public let socketPath: String
    private let rpc: RPCClient

    public static func connect(socketPath: String) throws(HealthCtlError) -> ManagerClient {
        do {
            return ManagerClient(socketPath: socketPath, rpc: try RPCClient.connect(path: socketPath))
        } catch {
            guard case let .unreachable(cause) = error else { throw .brokerNotTrusted(socket: socketPath, refusal: error) }
            throw .brokerUnreachable(socket: socketPath, cause: cause)
        }
    }

    private init(socketPath: String, rpc: RPCClient) {
        self.socketPath = socketPath
        self.rpc = rpc
    }

    public func close() { rpc.close() }

    public func status() async throws(HealthCtlError) -> BrokerStatus {
        try await unary(.status, EmptyMessage(), action: "report its status")
    }

    public func installApp(_ manifest: AppManifest) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.installApp, ManifestList([manifest]), action: "install \(manifest.id)")
    }

    public func listApps() async throws(HealthCtlError) -> [AppManifest] {
        try await installedApps().manifests
    }

    /// The installed apps with the ones the user allowed to connect directly.
    public func installedApps() async throws(HealthCtlError) -> ManifestList {
        try await unary(.listApps, EmptyMessage(), action: "list the installed apps")
    }

    public func setNetworkAccess(appID: String, allowed: Bool) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.setNetworkAccess, NetworkAccessSetting(appID: appID, allowed: allowed),
                                              action: allowed ? "allow network access" : "deny network access")
    }

    public func setDirectConnection(appID: String, allowed: Bool) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.setDirectConnection, DirectConnectionSetting(appID: appID, allowed: allowed),
                                              action: allowed ? "allow direct connections" : "deny direct connections")
    }

    public func listRequests() async throws(HealthCtlError) -> [AuthorizationPrompt] {
        let list: PromptList = try await unary(.listRequests, EmptyMessage(), action: "list the pending requests")
        return list.prompts
    }

    public func answerRequest(_ answer: PromptAnswer) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.answerRequest, answer, action: "record the answer to request \(answer.requestID)")
    }

    public func setGrants(_ grants: AppGrants) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.setGrants, grants, action: "change the grants of \(grants.appID)")
    }

    public func listGrants(appID: String) async throws(HealthCtlError) -> [GrantDecision] {
        let list: GrantList = try await unary(.listGrants, AppGrants(appID: appID), action: "list the grants of \(appID)")
        return list.grants
    }

    /// Every pending prompt now, then each new one as it arrives, until the consumer stops iterating.
    public func watchRequests() -> DecodedStream<AuthorizationPrompt> {
        stream(.watchRequests, EmptyMessage(), action: "watch for requests", as: AuthorizationPrompt.self)
    }

    /// The query's results in the batches healthd sends them (unfiltered: the user sees all their data).
    public func querySamples(_ spec: SampleQuerySpec) -> DecodedStream<SampleList> {
        stream(.querySamples, spec, action: "query \(TypeDisplayName.words(of: spec.typeIdentifier)) samples", as: SampleList.self)
    }

    // MARK: - Calls

    func unary<Response: WireMessage>(
        _ method: HealthManagerMethod, _ request: some WireMessage, action: String
    ) async throws(HealthCtlError) -> Response {
        try await unary(method, bytes: request.wireBytes(), action: action)
    }

    /// The same, for a request already packed (`ImportRequestBuilder`).
    func unary<Response: WireMessage>(
        _ method: HealthManagerMethod, bytes request: [UInt8], action: String
    ) async throws(HealthCtlError) -> Response {
        let payload: [UInt8]
        do {
            payload = try await rpc.unary(method.rawValue, request)
        } catch {
            throw Self.failure(error, action: action)
        }
        return try Self.decode(payload, action: action)
    }

    func stream<Message: WireMessage>(
        _ method: HealthManagerMethod, _ request: some WireMessage, action: String, as: Message.Type
    ) -> DecodedStream<Message> {
        DecodedStream(payloads: rpc.serverStream(method.rawValue, request.wireBytes()), action: action)
    }

    static func decode<Message: WireMessage>(_ payload: [UInt8], action: String) throws(HealthCtlError) -> Message {
        do {
            return try Message(wire: payload)
        } catch {
            throw .malformedResponse(action: action, detail: "\(error)")
        }
    }

    static func failure(_ error: any Error, action: String) -> HealthCtlError {
        if let status = error as? RPCStatus { return .brokerFailed(action: action, status: status) }
        if error is CancellationError { return .brokerFailed(action: action, status: RPCStatus(.cancelled, "cancelled")) }
        return .brokerFailed(action: action, status: RPCStatus(.unknown, "\(error)"))
    }
}

/// A server stream whose payloads are decoded into `Message`, with failures as `HealthCtlError`.
/// Ending iteration early drops the underlying stream, which sends CANCEL to healthd.
public struct DecodedStream<Message: WireMessage>: AsyncSequence, Sendable {
    let payloads: AsyncThrowingStream<[UInt8], any Error>
    let action: String

    public struct AsyncIterator: AsyncIteratorProtocol {
        var payloads: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
        let action: String

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(HealthCtlError) -> Message? {
            let payload: [UInt8]?
            do {
                payload = try await payloads.next(isolation: actor)
            } catch {
                throw ManagerClient.failure(error, action: action)
            }
            guard let payload else { return nil }
            return try ManagerClient.decode(payload, action: action)
        }

        public mutating func next() async throws(HealthCtlError) -> Message? {
            try await next(isolation: nil)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(payloads: payloads.makeAsyncIterator(), action: action)
    }
}
