import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// DESIGN §7.3: "identifiers an app sees (UUIDs, anchors, orderings) share no state with other
/// apps". Each test builds the store twice — once with a write the reader may not see, once (the
/// twin) without it — and compares what the reader is answered, byte for byte. Shared rows that
/// hidden writes touch: the source rows (their order and name), and the attachment uploads
/// (findings 3–6 of the session 16 privacy review; SECURITY.md "Source order and names" and
/// "Attachments").
@Suite(.timeLimit(.minutes(10))) struct HiddenWriteTwinTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let reader = "org.example.reader"
    /// Named so that the bundle-identifier order ("...alpha" < "...beta") is the opposite of the
    /// order the twin creates their rows in (beta first): a default order by row creation shows
    /// the hidden write.
    static let alpha = SourceRecord(bundleIdentifier: "org.example.alpha", name: "Alpha", version: "1")
    static let beta = SourceRecord(bundleIdentifier: "org.example.beta", name: "Beta", version: "1")
    /// The reader's window for `.stepsBeforeTheWindow`: everything from here on.
    static let windowStart = Date(timeIntervalSince1970: 1_700_000_000)

    /// A write the reader cannot see, each of the kinds that make a source's row.
    enum HiddenWrite: CaseIterable, CustomStringConvertible {
        /// A sample of a type the reader may not read.
        case otherType
        /// Steps dated before the reader's window (a `--window` grant).
        case stepsBeforeTheWindow
        /// Locations of a route never finished: no object at all.
        case routeDraft

        var description: String {
            switch self {
            case .otherType: "a sleep sample"
            case .stepsBeforeTheWindow: "steps before the window"
            case .routeDraft: "an unfinished route"
            }
        }

        /// The reader's scope for steps in this world: a window grant only where the hidden write
        /// hides by date.
        var readerScope: ReadScope {
            self == .stepsBeforeTheWindow ? .recentWindow(appID: HiddenWriteTwinTests.reader, since: HiddenWriteTwinTests.windowStart)
                                          : .allSources
        }

        func write(as source: SourceRecord, _ database: HealthDatabase) async throws {
            switch self {
            case .otherType:
                let night = HiddenWriteTwinTests.windowStart.addingTimeInterval(-3_600)
                _ = try await database.samples.insert([SampleRecord(uuid: UUID(), typeIdentifier: HiddenWriteTwinTests.sleep, startDate: night,
                                                                    endDate: night.addingTimeInterval(1_800), value: .category(1))],
                                                      source: source)
            case .stepsBeforeTheWindow:
                _ = try await database.samples.insert([HiddenWriteTwinTests.steps(-86_400, -86_340, 11)], source: source)
            case .routeDraft:
                _ = try await database.samples.insertRouteData([RouteLocation(timestamp: HiddenWriteTwinTests.windowStart,
                                                                              latitude: 52.5, longitude: 13.4)],
                                                               builderID: UUID(), source: source)
            }
        }
    }

    /// Steps over [start, end) seconds after `windowStart`.
    static func steps(_ start: Int, _ end: Int, _ value: Double) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: windowStart.addingTimeInterval(Double(start)),
                     endDate: windowStart.addingTimeInterval(Double(end)), value: .quantity(value, unit: "count"))
    }

    /// What the reader is told about steps: each source's statistics rows in merge order, with
    /// the name it shows, and the sources HKSourceQuery lists.
    static func readerView(_ database: HealthDatabase, scope: ReadScope) throws -> [String] {
        let visibility = Visibility(scope: scope, workouts: scope, correlations: scope, workoutValues: WorkoutValueScopes(others: scope))
        let statistics = try database.statistics.samples(typeIdentifier: steps, predicate: nil, scope: visibility).map { source in
            "\(source.source.bundleIdentifier) \(source.source.name): "
                + source.samples.map { "\($0.span.start / 1_000_000)=\($0.value)" }.joined(separator: " ")
        }
        let sources = try database.samples.sources(of: steps, matching: nil, scope: visibility).map { "source \($0.bundleIdentifier) \($0.name)" }
        return statistics + sources
    }

    // MARK: - Finding 3: the default source order

    /// Alpha's first write is hidden from the reader; then Beta and Alpha save overlapping steps.
    /// The order the reader's statistics merge in (and list `separateBySource` in) is the twin's,
    /// where Alpha's first write never happened: bundle identifier, not row creation.
    /// Failed before the fix for every kind ([alpha, beta] against the twin's [beta, alpha]).
    @Test(arguments: HiddenWrite.allCases)
    func theDefaultOrderIgnoresHiddenFirstWrites(hidden: HiddenWrite) async throws {
        func world(withHiddenWrite: Bool) async throws -> [String] {
            let database = try HealthDatabase(writer: DatabaseQueue())
            if withHiddenWrite { try await hidden.write(as: Self.alpha, database) }
            _ = try await database.samples.insert([Self.steps(30, 90, 90)], source: Self.beta)
            _ = try await database.samples.insert([Self.steps(0, 60, 60)], source: Self.alpha)
            return try Self.readerView(database, scope: hidden.readerScope)
        }
        let real = try await world(withHiddenWrite: true)
        #expect(real == (try await world(withHiddenWrite: false)), "\(hidden)")
        #expect(Array(real.prefix(2)) == ["org.example.alpha Alpha: 1700000000=60.0", "org.example.beta Beta: 1700000030=90.0"])
    }

    // MARK: - Finding 4: a source's name

    /// Alpha saves visible steps as "Alpha"; the user reinstalls it as "Alpha Pro"; then it
    /// writes only what the reader cannot see. The name the reader sees on Alpha's steps is the
    /// twin's, where those writes never happened — the installed one.
    /// Failed before the fix for every kind ("Alpha Pro" against the twin's "Alpha").
    @Test(arguments: HiddenWrite.allCases)
    func aSourcesNameComesFromItsInstallationNotItsWrites(hidden: HiddenWrite) async throws {
        func manifest(_ name: String) -> AppManifest {
            AppManifest(id: Self.alpha.bundleIdentifier, displayName: name, executable: "/bin/true", version: "1",
                        readUsageDescription: nil, shareUsageDescription: "Counts steps.", entitlements: [])
        }
        func world(withHiddenWrite: Bool) async throws -> [String] {
            let database = try HealthDatabase(writer: DatabaseQueue())
            try database.apps.install(manifest("Alpha"))
            _ = try await database.samples.insert([Self.steps(0, 60, 60)], source: Self.alpha)
            try database.apps.install(manifest("Alpha Pro"))
            var renamed = Self.alpha
            renamed.name = "Alpha Pro"
            if withHiddenWrite { try await hidden.write(as: renamed, database) }
            return try Self.readerView(database, scope: hidden.readerScope)
        }
        let real = try await world(withHiddenWrite: true)
        #expect(real == (try await world(withHiddenWrite: false)), "\(hidden)")
        #expect(real == ["org.example.alpha Alpha Pro: 1700000000=60.0", "source org.example.alpha Alpha Pro"])
    }

    /// A source that is no installed app (an import's) keeps the name of its first write: a
    /// later write under another name changes nothing anyone reads.
    @Test func aWriteNeverRenamesASource() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.steps(0, 60, 60)], source: Self.beta)
        var renamed = Self.beta
        renamed.name = "Beta Renamed"
        _ = try await database.samples.insert([Self.steps(60, 120, 1)], source: renamed)
        #expect(try Self.readerView(database, scope: .allSources).last == "source org.example.beta Beta")
    }

    // MARK: - Finding 5: an upload to an object the app lost

    static func prescription() -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: vision, startDate: windowStart, endDate: windowStart,
                     value: .visionPrescription(VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: nil)))
    }

    static func start(_ object: UUID, size: Int) -> AttachmentRepository.UploadStart {
        AttachmentRepository.UploadStart(objectUUID: object, typeIdentifier: vision, name: "scan.pdf", contentType: "com.adobe.pdf",
                                         size: size, metadata: [:])
    }

    /// The answer to one call: "ok", or the error's code and message.
    static func answer(_ call: () async throws -> Void) async -> String {
        do {
            try await call()
            return "ok"
        } catch let error as HKError {
            return "\(error.code.rawValue) \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    enum UploadCall: CaseIterable, CustomStringConvertible {
        case append, finish
        var description: String { self == .append ? "append" : "finish" }
    }

    /// The reader may read Alpha's prescription (a per-object grant: here its scope for the
    /// type), begins attaching to it, and loses the grant; then Alpha deletes the prescription —
    /// or does not (the twin). The reader's appends or finishes, before and after that deletion,
    /// answer the same in both worlds, and as for a deleted object.
    /// Failed before the fix: an append succeeded and a finish said `objectNotFound` while the
    /// object existed, both `uploadNotFound` once it was deleted.
    @Test(arguments: UploadCall.allCases)
    func anUploadToALostObjectAnswersAsIfTheObjectWereGone(call: UploadCall) async throws {
        func world(deleted: Bool) async throws -> [String] {
            let database = try HealthDatabase(writer: DatabaseQueue())
            let object = try await database.samples.insert([Self.prescription()], source: Self.alpha)[0]
            let upload = try await database.attachments.beginUpload(Self.start(object, size: 3), appID: Self.reader, scope: .allSources,
                                                                    now: Date())
            try await database.attachments.append(uploadID: upload, appID: Self.reader, scope: .allSources, offset: 0, data: [1, 2],
                                                  now: Date())
            let lost = ReadScope.ownSamples(appID: Self.reader)
            var offset = 2
            func poll() async -> String {
                await Self.answer {
                    switch call {
                    case .append:
                        try await database.attachments.append(uploadID: upload, appID: Self.reader, scope: lost, offset: offset, data: [3],
                                                              now: Date())
                        offset += 1
                    case .finish:
                        _ = try await database.attachments.finish(uploadID: upload, appID: Self.reader, scope: lost, now: Date())
                    }
                }
            }
            var answers = [await poll()]
            if deleted {
                let removed = try await database.samples.delete([ObjectReference(typeIdentifier: Self.vision, uuid: object)],
                                                                appID: Self.alpha.bundleIdentifier)
                #expect(removed == 1)
            }
            answers.append(await poll())
            let staged = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment_uploads") }
            answers.append("staged \(staged ?? -1)")
            return answers
        }
        let kept = try await world(deleted: false)
        #expect(kept == (try await world(deleted: true)), "\(call)")
        let gone = "\(HKError.Code.errorInvalidArgument.rawValue) \(AttachmentRepository.uploadNotFound.message)"
        #expect(kept == [gone, gone, "staged 0"])
    }

    /// The per-app cap of uploads in flight counts none to an object the app lost: the reader has
    /// three uploads to its own prescription and one (not its oldest) to Alpha's, loses Alpha's,
    /// and Alpha deletes it — or not. A fifth begin then abandons the same uploads in both worlds.
    /// Failed before the fix: with the lost object still stored, the reader's oldest upload went.
    @Test func theUploadCapCountsNoUploadToALostObject() async throws {
        func world(deleted: Bool) async throws -> [String] {
            let database = try HealthDatabase(writer: DatabaseQueue())
            let readerSource = SourceRecord(bundleIdentifier: Self.reader, name: "Reader", version: "1")
            let own = try await database.samples.insert([Self.prescription()], source: readerSource)[0]
            let others = try await database.samples.insert([Self.prescription()], source: Self.alpha)[0]
            let base = Date()
            var uploads: [UUID] = []
            for (index, object) in [own, others, own, own].enumerated() {
                uploads.append(try await database.attachments.beginUpload(Self.start(object, size: 1), appID: Self.reader, scope: .allSources,
                                                                          now: base.addingTimeInterval(Double(index))))
            }
            if deleted {
                _ = try await database.samples.delete([ObjectReference(typeIdentifier: Self.vision, uuid: others)],
                                                      appID: Self.alpha.bundleIdentifier)
            }
            let lost = ReadScope.ownSamples(appID: Self.reader)
            _ = try await database.attachments.beginUpload(Self.start(own, size: 1), appID: Self.reader, scope: lost,
                                                           now: base.addingTimeInterval(10))
            var answers: [String] = []
            for upload in [uploads[0], uploads[2], uploads[3]] {
                answers.append(await Self.answer {
                    try await database.attachments.append(uploadID: upload, appID: Self.reader, scope: lost, offset: 0, data: [1],
                                                          now: base.addingTimeInterval(11))
                })
            }
            return answers
        }
        let kept = try await world(deleted: false)
        #expect(kept == (try await world(deleted: true)))
        #expect(kept == ["ok", "ok", "ok"])
    }

    // MARK: - Finding 6: another app's begin

    /// The reader's upload idles past `staleUploadSeconds` on its live connection; meanwhile
    /// another app begins attaching to its own prescription, which the reader cannot see — or
    /// (the twin) that prescription does not exist and the begin fails. The reader's next append
    /// answers the same in both worlds: no app's begin sweeps another app's uploads.
    /// Failed before the fix: the other app's successful begin swept the reader's upload.
    @Test func anotherAppsBeginLeavesTheReadersIdleUploadAlone() async throws {
        func world(hiddenObjectExists: Bool) async throws -> String {
            let database = try HealthDatabase(writer: DatabaseQueue())
            let readerSource = SourceRecord(bundleIdentifier: Self.reader, name: "Reader", version: "1")
            let own = try await database.samples.insert([Self.prescription()], source: readerSource)[0]
            let base = Date()
            let upload = try await database.attachments.beginUpload(Self.start(own, size: 1), appID: Self.reader, scope: .allSources, now: base)
            let hidden = hiddenObjectExists ? try await database.samples.insert([Self.prescription()], source: Self.alpha)[0] : UUID()
            let later = base.addingTimeInterval(Double(AttachmentRepository.staleUploadSeconds) + 1)
            _ = await Self.answer {
                _ = try await database.attachments.beginUpload(Self.start(hidden, size: 1), appID: Self.alpha.bundleIdentifier,
                                                               scope: .ownSamples(appID: Self.alpha.bundleIdentifier), now: later)
            }
            return await Self.answer {
                try await database.attachments.append(uploadID: upload, appID: Self.reader, scope: .ownSamples(appID: Self.reader), offset: 0,
                                                      data: [1], now: later)
            }
        }
        let real = try await world(hiddenObjectExists: true)
        #expect(real == (try await world(hiddenObjectExists: false)))
        #expect(real == "ok")
    }
}
