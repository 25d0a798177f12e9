import ArgumentParser
import CSandbox
import Foundation
import Glibc
import HealthBroker
import HealthIPC
import HealthStore
import Logging

@main
struct Healthd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthd",
        abstract: "The OpenHealthKit broker: owns the encrypted health store and serves apps and the manager.",
        discussion: """
            healthd opens (creating on first run) the encrypted store in --store and listens on two Unix sockets in \
            --socket-dir: app.sock for apps (each connection identified by launch binding or by its executable) \
            and admin.sock (mode 0600) for healthctl and health-sandbox. It runs in the foreground; stop it with \
            SIGINT or SIGTERM. Logs go to stderr and never contain health values.

            Under systemd (systemd/healthd.socket) healthd takes its two sockets from the socket unit \
            (LISTEN_FDS, each named by FileDescriptorName=) after checking each is a listening Unix socket with \
            the path and mode it would have created; it tells systemd when it is ready (NOTIFY_SOCKET), logs \
            to the journal with levels (JOURNAL_STREAM), and exits when idle (--idle-exit): systemd starts it \
            again on the next connection.

            A store protected by a passcode (healthctl passcode set) opens only with it: give it in a file \
            (--passcode-file, its first line) or on standard input (--passcode-stdin). healthd keeps the \
            bytes only until the store is open.

            With nobody to type the passcode (a service started at boot), --start-locked starts healthd on a \
            passcode store locked (a store without a passcode opens as usual): apps connect, authorizationStatus and requests are answered, saves are kept sealed in \
            the pending journal, and every read fails with errorDatabaseInaccessible until `healthctl unlock` \
            opens the store and merges them. It serves from locked-start.snapshot, which healthd keeps in the \
            store directory while unlocked (the installed apps and grants, sealed with the machine key, so \
            whoever can read machine.key learns them without the passcode; SECURITY.md). A missing, stale or \
            altered snapshot is refused: start healthd once with the passcode to write it again.

            Example:
              healthd --store ~/.local/share/openhealth --socket-dir /run/user/1000/openhealth
            """)

    @Option(help: ArgumentHelp("Store directory (database and key files).", valueName: "dir"))
    var store: String = DefaultPaths.storeDirectory

    @Option(name: .customLong("socket-dir"), help: ArgumentHelp("Directory for app.sock and admin.sock.", valueName: "dir"))
    var socketDirectory: String = DefaultPaths.socketDirectory

    @Option(name: .customLong("trust-manager"),
            help: ArgumentHelp("Another executable allowed on the admin socket (repeatable). healthctl and health-sandbox next to healthd are always trusted.", valueName: "path"))
    var trustedManagers: [String] = []

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(name: .customLong("passcode-file"),
            help: ArgumentHelp("Read the store's passcode from the first line of this file (yours, mode 600 or 400).", valueName: "path"))
    var passcodeFile: String?

    // Background delivery's timing, for tests and demos only (hidden from --help): each can
    // only make launches sooner or more frequent, never reach data an app could not read.
    @Option(name: .customLong("background-period-scale"), help: .hidden)
    var backgroundPeriodScale: Double = 1

    @Option(name: .customLong("background-ack-timeout"), help: .hidden)
    var backgroundAcknowledgementTimeout: Double?

    @Option(name: .customLong("background-first-backoff"), help: .hidden)
    var backgroundFirstBackoff: Double?

    // A test hook (hidden from --help): how long a peer may stall a connection — a frame left
    // incomplete, replies left unread — before healthd closes it (BrokerLimits'
    // incompleteFrameTimeout and unreadRepliesTimeout; 10 s unless given). Tests set minutes so
    // that "a stalled app stalls only itself" is checked while the stall lasts, not in a race
    // with the 10 s. It bounds only the stalling app's own connection.
    @Option(name: .customLong("stalled-peer-timeout"), help: .hidden)
    var stalledPeerTimeoutSeconds: Int?

    // A test hook (hidden from --help): how long a large query may wait for its client to read
    // over its whole answer (BrokerLimits' answerReadDeadline; six stall timeouts unless given),
    // so a test sees a slowly reading client reach it in seconds.
    @Option(name: .customLong("answer-read-deadline"), help: .hidden)
    var answerReadDeadlineSeconds: Int?

    // A test hook (hidden from --help): large queries running at once (BrokerLimits'
    // largeQueriesRunning, cores − 1 unless given), so tests of the query slots see the same
    // scheduler on a two-core machine and on a CI machine with more cores.
    @Option(name: .customLong("large-queries-running"), help: .hidden)
    var largeQueriesRunning: Int?

    // A test hook (hidden from --help): wake-up checks running at once (BrokerLimits'
    // checkWorkers, half the cores, 1 to 4, unless given), so a test of the check pool sees the
    // same pool on a two-core machine and on a CI machine with more cores.
    @Option(name: .customLong("check-workers"), help: .hidden)
    var checkWorkers: Int?

    // A test hook (hidden from --help): one app's share of the buffer bound in MiB (BrokerLimits'
    // bufferedBytesPerApp, 32 unless given; the broker's total is raised to it if below), so a
    // memory test can compare healthd under the same flood with the share and without it.
    @Option(name: .customLong("app-buffer-share-mib"), help: .hidden)
    var appBufferShareMiB: Int?

    // A test hook (hidden from --help): the CPU time, in milliseconds, one statement of an app's
    // call may use without handing part of its answer (BrokerLimits' statementCPUBudget; 10 s
    // unless given), so a test sees an expensive predicate stopped in a fraction of a second.
    @Option(name: .customLong("statement-cpu-budget-ms"), help: .hidden)
    var statementCPUBudgetMilliseconds: Int?

    // A test hook (hidden from --help): what one app may journal while the store is locked, in
    // KiB (BrokerLimits' journaledBytesPerApp, 8 MiB unless given), so a test reaches the
    // journal bound in a few saves.
    @Option(name: .customLong("journal-bound-kib"), help: .hidden)
    var journalBoundKiB: Int?

    @Option(name: .customLong("lock-after"),
            help: ArgumentHelp("Lock the store after this long without reads or saves (e.g. 90s, 10m, 1h); off by default.",
                               valueName: "duration"))
    var lockAfter: String?

    @Option(name: .customLong("idle-exit"),
            help: ArgumentHelp("When socket-activated: exit after this many seconds with no connection (the launch agent's aside) and no background delivery owed; 0 never exits.", valueName: "seconds"))
    var idleExitSeconds: Double = 300

    @Flag(name: .customLong("passcode-stdin"), help: "Read the store's passcode from the first line of standard input.")
    var passcodeFromStandardInput = false

    @Flag(name: .customLong("start-locked"),
          help: "If a passcode protects the store, start locked (from locked-start.snapshot) without it; `healthctl unlock` opens it. Other stores open as usual.")
    var startLocked = false

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'; use trace, debug, info, notice, warning, error or critical")
        }
        for path in [store, socketDirectory] + trustedManagers where !path.hasPrefix("/") {
            throw ValidationError("'\(path)' is not an absolute path")
        }
        guard idleExitSeconds.isFinite, idleExitSeconds >= 0, idleExitSeconds <= 86_400 * 365 else {
            throw ValidationError("--idle-exit must be a number of seconds from 0 (never) to a year, got \(idleExitSeconds)")
        }
        for value in [backgroundPeriodScale, backgroundAcknowledgementTimeout ?? 1, backgroundFirstBackoff ?? 1]
        where !(value.isFinite && value > 0) {
            throw ValidationError("background delivery timings must be positive numbers, got \(value)")
        }
        if let milliseconds = statementCPUBudgetMilliseconds, !(1...3_600_000).contains(milliseconds) {
            throw ValidationError("--statement-cpu-budget-ms must be a whole number of milliseconds from 1 to 3600000, got \(milliseconds)")
        }
        if let seconds = stalledPeerTimeoutSeconds, !(1...3600).contains(seconds) {
            throw ValidationError("--stalled-peer-timeout must be a whole number of seconds from 1 to 3600, got \(seconds)")
        }
        // A share must hold one maximal request as it is counted (4 MiB at 4 bytes a byte, BrokerLimits).
        if let journalBoundKiB, !(1...(1 << 30)).contains(journalBoundKiB) {
            throw ValidationError("--journal-bound-kib must be from 1 to 1073741824, got \(journalBoundKiB)")
        }
        if let appBufferShareMiB, !(17...65_536).contains(appBufferShareMiB) {
            throw ValidationError("--app-buffer-share-mib must be from 17 to 65536, got \(appBufferShareMiB)")
        }
        if let seconds = answerReadDeadlineSeconds, !(1...86_400).contains(seconds) {
            throw ValidationError("--answer-read-deadline must be a whole number of seconds from 1 to 86400, got \(seconds)")
        }
        if let largeQueriesRunning, !(1...64).contains(largeQueriesRunning) {
            throw ValidationError("--large-queries-running must be from 1 to 64, got \(largeQueriesRunning)")
        }
        if let lockAfter, LockAfterOption.parse(lockAfter) == nil {
            throw ValidationError("--lock-after '\(lockAfter)' is not a duration; give a number with s, m or h, e.g. 10m")
        }
        if passcodeFile != nil && passcodeFromStandardInput {
            throw ValidationError("give the passcode either with --passcode-file or with --passcode-stdin, not both")
        }
        if startLocked && (passcodeFile != nil || passcodeFromStandardInput) {
            throw ValidationError("--start-locked starts without the passcode; give it later to `healthctl unlock`, not with --passcode-file or --passcode-stdin")
        }
    }

    func run() throws {
        // Block SIGINT/SIGTERM before any thread exists, so every thread inherits the mask and
        // the signal is only ever taken by sigwait below.
        let terminationSignals = SignalWaiter.blockTerminationSignals()
        let allocatorTuned = AllocatorTuning.keepLargeBuffers()
        PrivateDirectories.restrictFileCreationMask()
        // Before the key is read: no core dumps of key material, no same-uid ptrace, and
        // sandboxed apps (which may read /proc) see nothing of this process.
        ProcessHardening.makeNonDumpable()
        let writeExecuteDenied = ProcessHardening.denyWriteExecute()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let environment = ProcessInfo.processInfo.environment
        let toJournal = JournalLogHandler.standardErrorIsJournal(environment)
        CrashReport.install(journal: toJournal)
        // Every line through `EscapingLogHandler`: no text in a message or its metadata can
        // start a line (or a journal entry) of its own.
        LoggingSystem.bootstrap { label in
            if toJournal { return EscapingLogHandler(wrapping: JournalLogHandler(label: EscapingLogHandler.escaped(label), logLevel: level)) }
            var handler = StreamLogHandler.standardError(label: EscapingLogHandler.escaped(label))
            handler.logLevel = level
            return EscapingLogHandler(wrapping: handler)
        }
        let logger = Logger(label: "healthd")
        // Before the store opens: a page that fails authentication during a read is logged with
        // its number and file (the app is only told the store could not be read).
        CipherFailureLog.install { report in logger.error("\(report)") }
        if !allocatorTuned {
            logger.info("glibc refused the allocator settings for large queries (mallopt); running with its defaults")
        }
        if !writeExecuteDenied {
            logger.info("this kernel cannot refuse write+execute memory (PR_SET_MDWE, Linux 6.3+); running without it")
        }
        let notifier: ServiceNotifier
        let inheritedSockets: [InheritedSockets.Entry]?
        do {
            notifier = try ServiceNotifier(environment: environment)
            inheritedSockets = try InheritedSockets.parse(environment, pid: getpid())
        } catch {
            throw StartupFailure("\(error)")
        }
        // Not for any process healthd might start (it starts none; this keeps it so).
        for variable in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET"] { unsetenv(variable) }

        // The store directory itself is created (0700) by the store; its parents, like
        // ~/.local/share on a fresh account, are created here.
        for folder in [store, socketDirectory] {
            try? FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
        }
        // Both folders 0700 and this user's, at every start; the store then sets 0600 on each
        // of its files when it opens (StoreLayout).
        try PrivateDirectories.enforce(store, what: "store")
        try PrivateDirectories.enforce(socketDirectory, what: "socket")
        // Before the first thread (Landlock confines only the calling thread and the threads it
        // starts later): the peer inspector — a copy of this process, so before the passcode
        // and the key are read — then the passcode, whose file may be anywhere, then the walls
        // that keep healthd to its two folders from here on.
        try FileConfinement.startPeerInspector()
        let passcode: Passcode?
        do {
            passcode = try PasscodeInput.read(file: passcodeFile, standardInput: passcodeFromStandardInput)
        } catch {
            throw StartupFailure("cannot open the health store: \(error)")
        }
        let fileConfinement = try FileConfinement.confine(store: store, socketDirectory: socketDirectory,
                                                          environment: environment, logger: logger)
        // Before the store opens: its pool's reader count comes from them (`storeReaders`).
        let limits = brokerLimits()
        let served: BrokerStore
        // Only a passcode store starts locked; one under the machine key (or a new one) opens as
        // usual, since nobody need type anything (so the service unit can always pass the flag).
        if startLocked, (try? StorePasscode.isSet(directory: store)) == true {
            do {
                served = .startingLocked(try LockedStart.open(directory: store) { error in
                    logger.error("the locked-start snapshot could not be written", metadata: ["error": "\(error)"])
                })
            } catch {
                throw StartupFailure(error.description)
            }
            logger.notice("starting locked from the locked-start snapshot; reads wait for `healthctl unlock`")
        } else {
            served = .opened(try openStore(passcode: passcode, logger: logger, readers: limits.storeReaders))
        }

        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var trusted = BrokerConfiguration.siblingTools(of: executable)
        trusted.formUnion(trustedManagers)
        var configuration = BrokerConfiguration(storeDirectory: store, socketDirectory: socketDirectory,
                                                trustedManagerExecutables: trusted)
        configuration.brokerExecutable = executable
        configuration.backgroundDelivery.periodScale = backgroundPeriodScale
        if let seconds = backgroundAcknowledgementTimeout { configuration.backgroundDelivery.acknowledgementTimeout = .seconds(seconds) }
        if let seconds = backgroundFirstBackoff { configuration.backgroundDelivery.firstBackoff = .seconds(seconds) }
        configuration.limits = limits
        configuration.lockAfter = lockAfter.flatMap(LockAfterOption.parse)
        configuration.service.landlockABI = fileConfinement.landlockABI
        configuration.service.landlockMissingReason = fileConfinement.missingReason
        var listeners: BrokerListeners?
        if let inheritedSockets {
            do {
                listeners = try BrokerListeners.adopt(inheritedSockets, for: configuration)
            } catch {
                throw StartupFailure("\(error)")
            }
            configuration.service.socketActivated = true
            configuration.service.idleExit = idleExitSeconds > 0 ? .milliseconds(Int64(idleExitSeconds * 1000)) : nil
        }
        let broker: Broker
        do {
            switch served {
            case let .opened(encrypted):
                broker = try Broker(configuration: configuration, store: encrypted, inherited: listeners, logger: logger)
            case let .startingLocked(start):
                broker = try Broker(configuration: configuration, startingLocked: start, inherited: listeners, logger: logger)
            }
        } catch {
            throw StartupFailure("\(error)")
        }
        broker.start()
        let marker: RunningMarker
        do {
            marker = try RunningMarker(socketDirectory: socketDirectory)
        } catch {
            broker.stop()
            throw error
        }
        // From here on no exec and no network sockets, on every thread (DESIGN.md §2): a bug in
        // request handling cannot become a shell. Refuse to run unconfined. (Its files were
        // walled in before the first thread started: FileConfinement above.)
        var message = [CChar](repeating: 0, count: 256)
        guard ohk_confine_broker(&message, message.count) == 0 else {
            marker.remove()
            broker.stop()
            throw StartupFailure("cannot confine healthd: \(String(cString: message))")
        }
        let activation = configuration.service.socketActivated ? "socket-activated" : "started directly"
        notifier.ready(status: "serving (\(activation); \(fileConfinement.statusLine))")
        let reason = ServiceLoop.run(broker: broker, idleExit: configuration.service.idleExit, signals: terminationSignals)
        marker.remove()
        notifier.stopping(status: reason.description)
        logger.notice("healthd stopping", metadata: ["reason": "\(reason)"])
        broker.stop()
    }

    /// The broker's limits, with the hidden test options applied.
    private func brokerLimits() -> BrokerLimits {
        var limits = BrokerLimits()
        if let seconds = stalledPeerTimeoutSeconds {
            let timeout = Duration.seconds(seconds)
            limits.incompleteFrameTimeout = timeout
            limits.unreadRepliesTimeout = timeout
        }
        if let seconds = answerReadDeadlineSeconds { limits.answerReadDeadline = .seconds(seconds) }
        if let largeQueriesRunning { limits.largeQueriesRunning = largeQueriesRunning }
        if let checkWorkers { limits.checkWorkers = max(1, checkWorkers) }
        if let statementCPUBudgetMilliseconds { limits.statementCPUBudget = .milliseconds(statementCPUBudgetMilliseconds) }
        if let journalBoundKiB { limits.journaledBytesPerApp = journalBoundKiB << 10 }
        if let appBufferShareMiB {
            limits.bufferedBytesPerApp = appBufferShareMiB << 20
            limits.bufferedBytes = max(limits.bufferedBytes, limits.bufferedBytesPerApp)
        }
        return limits
    }

    /// The store opened with the passcode (if one is set) — read-only when its disk is full —
    /// with `readers` reader connections at most.
    private func openStore(passcode: Passcode?, logger: Logger, readers: Int) throws -> EncryptedDatabase {
        let encrypted: EncryptedDatabase
        do {
            encrypted = try EncryptedDatabase.open(directory: store, passcode: passcode, maximumReaderCount: readers)
        } catch let StoreOpenError.database(_, code, _) where code & 0xFF == 13 {
            // The file system is full (SQLITE_FULL: ENOSPC): serve reads rather than nothing.
            // Writes are refused saying why; `healthctl status` shows it. Restart after freeing space.
            logger.warning("the store's file system is full; starting read-only", metadata: [
                "cause": "no space left on device (ENOSPC)", "store": "\(store)"])
            do {
                encrypted = try EncryptedDatabase.openReadOnly(
                    directory: store, passcode: passcode,
                    reason: "healthd started read-only because no space was left on device; free space and restart healthd",
                    maximumReaderCount: readers)
            } catch {
                throw StartupFailure("cannot open the health store, even read-only, while its disk is full: \(error)")
            }
        } catch StoreOpenError.passcodeRequired {
            throw StartupFailure("the health store at \(store) is protected by a passcode: start healthd with --passcode-file PATH or --passcode-stdin (or --start-locked, to unlock it later with healthctl unlock)")
        } catch {
            throw StartupFailure("cannot open the health store: \(error)")
        }
        return encrypted
    }

    /// What healthd serves: the store it opened, or the store started locked.
    private enum BrokerStore {
        case opened(EncryptedDatabase)
        case startingLocked(LockedStart)
    }
}

/// A start-up failure: printed as one line, exit status 1.
struct StartupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "healthd: " + description }
}

