import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// The manager's methods: the user's own tool, so it sees all data and may change grants.
enum ManagerService {
    static func status(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        let service = context.configuration.service
        // While locked the sample count is unknown (it is health data's size): reported as 0.
        let (installedApps, sampleCount) = try await context.store.withCurrentStore { access in
            switch access {
            case let .open(database): (try database.apps.all().count, try database.samples.count())
            case let .locked(locked): (try locked.grants.apps.all().count, 0)
            }
        }
        return MethodTable.Reply(BrokerStatus(
            storeDirectory: context.configuration.storeDirectory,
            appSocket: context.configuration.appSocketPath, adminSocket: context.configuration.adminSocketPath,
            installedApps: installedApps,
            pendingRequests: await context.prompts.prompts.count,
            connectedApps: context.connections.connectedAppCount,
            sampleCount: sampleCount, version: BrokerVersion.string,
            readOnlyReason: context.store.readOnlyReason ?? "", locked: await context.store.isLocked,
            service: .init(socketActivated: service.socketActivated,
                           idleExitSeconds: Int(service.idleExit?.components.seconds ?? 0),
                           processID: getpid(), started: service.started),
            storeBytes: storeBytes(in: context.configuration.storeDirectory),
            // healthd does not know of exports (healthctl writes them): healthctl fills this in.
            lastExport: nil,
            confinement: confinement(service),
            answersReadAgain: Int(clamping: StreamVisibility.readingsAgain),
            damagedJournals: DamagedPendingJournals.list(directory: context.store.directory))
            .with(longRunningSlotVisits: Int(clamping: LongRunningWork.slotVisits),
                  watchComputations: Int(clamping: LongRunningWork.computations)))
    }

    /// What walls healthd in: the Landlock ABI recorded at start, and — read now, not assumed —
    /// its seccomp filter (`/proc/self/status`) and whether its peer inspector answers.
    private static func confinement(_ service: BrokerConfiguration.ServiceMode) -> BrokerStatus.Confinement {
        let inspector: BrokerStatus.Confinement.PeerInspector = switch PeerProcessReading.state {
        case .inProcess: .inProcess
        case .answering: .answering
        case .gone: .gone
        }
        return BrokerStatus.Confinement(landlockABI: service.landlockABI,
                                        landlockMissingReason: service.landlockABI > 0 ? "" : service.landlockMissingReason,
                                        seccompFiltered: ProcessHardening.seccompFiltered(), peerInspector: inspector)
    }

    /// The size of every file in the store folder (database, its journal, keys): what the store
    /// takes on disk. Unreadable entries count as 0 rather than failing the status.
    private static func storeBytes(in directory: String) -> Int {
        guard let files = FileManager.default.enumerator(atPath: directory) else { return 0 }
        var total = 0
        for case let name as String in files {
            var info = stat()
            if lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG { total += Int(info.st_size) }
        }
        return total
    }

    static func installApp(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let manifests = try ManifestList(wire: payload).manifests
        guard manifests.count == 1, let manifest = manifests.first else {
            throw HKError(.errorInvalidArgument, "install exactly one manifest at a time")
        }
        let problems = manifest.problems
        guard problems.isEmpty else {
            throw HKError(.errorInvalidArgument, "invalid manifest: " + problems.joined(separator: "; "))
        }
        guard FileManager.default.isExecutableFile(atPath: manifest.executable) else {
            throw HKError(.errorInvalidArgument, "executable \(manifest.executable) does not exist or is not executable")
        }
        // The app's sandbox uid is assigned at install, so `healthctl`'s view and every later
        // launch agree on it from the start.
        // Refused while locked: an install assigns a sandbox uid and may replace an executable,
        // which the locked copy of the apps would have to mirror exactly; the user who installs
        // is at the keyboard and can unlock.
        let (replaced, changed) = try await context.store.withDatabase(changing: "installing an app") { database in
            let previous = try database.apps.find(id: manifest.id)
            let replaced = try database.apps.install(manifest)
            _ = try database.apps.sandboxUID(appID: manifest.id)
            // A reinstall naming another executable withdraws the direct opt-in of the old one.
            if replaced { context.connections.revalidateDirectConnections(in: database) }
            return (replaced, previous.map { $0 != manifest } ?? false)
        }
        // Open connections were served under the old manifest (its executable, usage
        // descriptions, entitlements): they end, and the app's next connection gets the new one.
        if changed { await context.connections.endConnections(of: manifest.id, because: .changed(appID: manifest.id)) }
        context.logger.notice("app installed", metadata: ["app": "\(manifest.id)", "replaced": "\(replaced)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func listApps(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let (apps, direct, network) = try await context.store.withGrants { database in
            (try database.apps.all(), try database.apps.directConnectionAppIDs(), try database.apps.networkAllowedAppIDs())
        }
        return MethodTable.Reply(ManifestList(apps, directConnectionAppIDs: direct, networkAppIDs: network))
    }

    /// The user's switch for one app's network access; the app's next launch applies it.
    static func setNetworkAccess(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let setting = try NetworkAccessSetting(wire: payload)
        _ = try AdminAppID.checked(setting.appID)
        // Kept while locked (journaled, and in the copy the locked store launches apps from).
        let found = try await context.store.setAppAccess(appID: setting.appID, .network, allowed: setting.allowed)
        guard found else {
            throw HKError(.errorInvalidArgument, "no installed app \(setting.appID.prefix(128)); see `healthctl apps list`")
        }
        context.logger.notice("network access \(setting.allowed ? "allowed" : "denied")", metadata: ["app": "\(setting.appID)"])
        return MethodTable.Reply(EmptyMessage())
    }

    /// The user's opt-in to direct connections for one app (AppPeerResolver checks it).
    static func setDirectConnection(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let setting = try DirectConnectionSetting(wire: payload)
        _ = try AdminAppID.checked(setting.appID)
        // Kept while locked too (journaled, and in the copy that identifies connections meanwhile):
        // withdrawing trust must not wait for an unlock.
        let found = try await context.store.setAppAccess(appID: setting.appID, .directConnections, allowed: setting.allowed) { database in
            // Withdrawn means withdrawn now: open direct connections of the app end at once.
            if !setting.allowed { context.connections.revalidateDirectConnections(in: database) }
        }
        guard found else {
            throw HKError(.errorInvalidArgument, "no installed app \(setting.appID.prefix(128)); see `healthctl apps list`")
        }
        context.logger.notice("direct connections \(setting.allowed ? "allowed" : "denied")", metadata: ["app": "\(setting.appID)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func listRequests(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        MethodTable.Reply(PromptList(await context.prompts.prompts))
    }

    static func watchRequests(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        for await prompt in await context.prompts.watch() {
            try await responder.send(prompt.wireBytes())
        }
    }

    static func answerRequest(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let answer = try PromptAnswer(wire: payload)
        guard let prompt = await context.prompts.prompt(answer.requestID) else {
            throw HKError(.errorInvalidArgument, "no pending request \(answer.requestID); list them with `healthctl requests`")
        }
        // Every type of the prompt gets a decision; one the answer leaves out is denied.
        var decisions: [GrantDecision] = []
        for (types, access) in [(prompt.readTypes, AccessKind.read), (prompt.shareTypes, AccessKind.share)] {
            for type in types {
                let given = answer.decisions.first { $0.typeIdentifier == type && $0.access == access }
                decisions.append(given?.decision == .authorized
                    ? GrantDecision(type, access, .authorized, limits: given?.limits ?? .none)
                    : GrantDecision(type, access, .denied))
            }
        }
        let asked = Set(decisions.map { "\($0.access)/\($0.typeIdentifier)" })
        for extra in answer.decisions where !asked.contains("\(extra.access)/\(extra.typeIdentifier)") {
            throw HKError(.errorInvalidArgument, "request \(answer.requestID) did not ask for \(extra.access) access to \(extra.typeIdentifier)")
        }
        try GrantLimitsCheck.check(decisions, now: Date())
        try await context.store.applyGrants(appID: prompt.appID, decisions)
        CallAccessReport.record(appID: prompt.appID, types: Set(decisions.map(\.typeIdentifier)).sorted(),
                                count: decisions.count, detail: "request \(answer.requestID): " + GrantTally(decisions).summary)
        context.changes.post(grantsChangedFor: prompt.appID, types: decisions.map(\.typeIdentifier))
        context.grantExpiries.reschedule()
        _ = await context.prompts.resolve(answer.requestID)
        context.logger.notice("request answered", metadata: ["app": "\(prompt.appID)", "request": "\(answer.requestID)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func setGrants(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try AppGrants(wire: payload)
        _ = try AdminAppID.checked(request.appID)
        guard try await context.store.withGrants({ try $0.apps.find(id: request.appID) }) != nil else {
            throw HKError(.errorInvalidArgument, "no installed app \(request.appID.prefix(128)); see `healthctl apps list`")
        }
        for grant in request.decisions {
            switch grant.access {
            case .share: try ValidatedAuthorizationRequest.checkShareable(grant.typeIdentifier)
            case .read: try ValidatedAuthorizationRequest.checkReadable(grant.typeIdentifier)
            }
        }
        try GrantLimitsCheck.check(request.decisions, now: Date())
        try await context.store.applyGrants(appID: request.appID, request.decisions)
        context.changes.post(grantsChangedFor: request.appID, types: request.decisions.map(\.typeIdentifier))
        context.grantExpiries.reschedule()
        CallAccessReport.record(appID: request.appID, types: Set(request.decisions.map(\.typeIdentifier)).sorted(),
                                count: request.decisions.count, detail: GrantTally(request.decisions).summary)
        context.logger.notice("grants changed", metadata: ["app": "\(request.appID)", "count": "\(request.decisions.count)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func listGrants(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try AppGrants(wire: payload)
        let grants = try await context.store.withGrants { database -> [GrantDecision]? in
            guard try database.apps.find(id: request.appID) != nil else { return nil }
            return try database.authorization.effectiveGrants(appID: request.appID)
        }
        guard let grants else {
            throw HKError(.errorInvalidArgument, "no installed app \(request.appID.prefix(128)); see `healthctl apps list`")
        }
        return MethodTable.Reply(GrantList(grants))
    }

    static func querySamples(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let spec = try SampleQuerySpec(wire: payload)
        try SampleQueries.check(spec)
        CallAccessReport.record(appID: nil, types: [spec.typeIdentifier])
        if HKObjectType.type(forIdentifier: spec.typeIdentifier) is HKCorrelationType {
            try await CorrelationService.streamForManager(CorrelationQuerySpec(spec), context, responder)
            return
        }
        let report = CallAccessReport.current
        try await context.store.withDatabaseOffPool { database in
            try SampleQueries.stream(spec, scope: .allSources, from: database, to: responder, counting: report)
        }
    }

    /// Launch binding (DESIGN.md §3.1): a new connection whose broker end is bound to the app,
    /// its other end handed to health-sandbox, which passes it on to the app it execs.
    static func launchBind(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try AppGrants(wire: payload)
        _ = try AdminAppID.checked(request.appID)
        // Read before the lookup: a removal or reinstall after it refuses the binding.
        let epoch = context.connections.revocationEpoch
        guard let app = try await context.store.withGrants({ try $0.apps.find(id: request.appID) }) else {
            throw HKError(.errorInvalidArgument, "no installed app \(request.appID.prefix(128)); install its manifest with `healthctl apps install`")
        }
        // Apps installed before sandbox uids existed get theirs at their first launch.
        guard let (uid, network, installed) = try await context.store.withGrants({ database in
            try database.apps.sandboxUID(appID: app.id).map { ($0, try database.apps.networkGranted(appID: app.id), try database.apps.all()) }
        }) else {
            throw HKError(.errorInvalidArgument, "no installed app \(request.appID.prefix(128)); install its manifest with `healthctl apps install`")
        }
        let clientEnd = try context.connections.bindLaunched(app, lookedUpAt: epoch)
        context.logger.notice("launch bound", metadata: ["app": "\(app.id)", "uid": "\(uid)", "network": "\(network)"])
        // The folders health-sandbox must never show the app, and the code no folder the app may
        // write may hold (other apps', the tools', healthd's): only healthd knows where they are.
        let tools = context.configuration.trustedManagerExecutables.sorted() + [context.configuration.brokerExecutable].compactMap { $0 }
        let binding = LaunchBinding(appID: app.id, sandboxUID: uid, network: network,
                                    storeDirectory: context.configuration.storeDirectory,
                                    socketDirectory: context.configuration.socketDirectory,
                                    executables: installed.map { LaunchBinding.Executable(path: $0.executable, appID: $0.id) }
                                        + tools.map { LaunchBinding.Executable(path: $0) })
        return MethodTable.Reply(binding, passing: clientEnd)
    }
}
