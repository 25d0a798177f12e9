import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// No answer may outgrow a frame because of what someone else stored (SECURITY.md,
/// "Answers sized by bytes"). A writer app stores objects as large as the rules allow — 64
/// metadata entries of 256-byte keys and 4,096-byte values, a device with every field at
/// 1 KiB — and then another party's answer over them, sent in frames cut by bytes, succeeds and
/// carries everything: the manager's per-object prompt listing and its access log. A sample that
/// no answer frame could hold is refused at its save.
@Suite(.serialized, .timeLimit(.minutes(10))) struct FrameBoundEndToEndTests {
    static let vision = HKVisionPrescriptionTypeIdentifier

    static let maximalMetadata: [String: MetadataValue] = Dictionary(uniqueKeysWithValues: (0..<SampleLimits.maximumMetadataEntries).map { index in
        let key = String(format: "org.test.pad%03d.", index)
        return (key + String(repeating: "k", count: SampleLimits.maximumMetadataKeyBytes - key.utf8.count),
                MetadataValue.string(String(repeating: "v", count: SampleLimits.maximumMetadataStringBytes)))
    })

    static let maximalDevice: DeviceRecord = {
        let field = String(repeating: "d", count: SampleLimits.maximumDeviceStringBytes)
        return DeviceRecord(name: field, manufacturer: field, model: field, hardwareVersion: field, firmwareVersion: field,
                            softwareVersion: field, localIdentifier: field, udiDeviceIdentifier: field)
    }()

    static func maximalPrescription(_ number: Int) -> SampleRecord {
        let issued = Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 86_400)
        return SampleRecord(uuid: UUID(), typeIdentifier: vision, startDate: issued, endDate: issued,
                            value: .visionPrescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: false,
                                                                               expirationDate: nil)),
                            metadata: maximalMetadata, device: maximalDevice)
    }

    /// developer.apple.com/documentation/healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:):
    /// "The user can then select the individual samples that the app has permission to read" —
    /// so the user must see every one. 16 maximal prescriptions are ~4.6 MB with their metadata:
    /// before the fix the prompt carried them whole in one frame, past the 4 MiB limit, and
    /// `healthctl object-requests` failed (no request ever listed); now a prompt keeps summaries
    /// and the listing is cut into frames by bytes.
    @Test func thePromptListsEveryCandidateWhateverTheWriterStoredInThem() async throws {
        let broker = try BrokerProcess()
        let writer = try await RawApp.install("org.test.frames-writer", on: broker, grants: [("share", Self.vision)])
        defer { writer.close() }
        let records = (0..<16).map(Self.maximalPrescription)
        for start in stride(from: 0, to: records.count, by: 8) {
            _ = try await writer.save(Array(records[start..<start + 8]))
        }
        // The reader is a sandboxed app (a second direct connection from this process could not
        // tell the two apps apart); the Apple snippet asks, then reads what it was allowed.
        let reader = try await broker.installClient("org.test.frames-reader")
        async let asked = broker.runApp(reader, ["snippet", "vision-per-object"])
        let listing = try await broker.pendingObjectRequests()
        let lines = listing.split(separator: "\n").map(String.init)
        let candidates = lines.filter { $0.hasPrefix("  ") && $0.contains(" from Test org.test.frames-writer (org.test.frames-writer)") }
        #expect(candidates.count == 16, "every prescription offered: \(listing.prefix(2_000))")
        guard let requestID = lines.first(where: { $0.hasPrefix("Request ") })
            .flatMap({ $0.dropFirst("Request ".count).split(separator: ":").first }) else {
            Issue.record("no request listed: \(listing.prefix(2_000))")
            _ = try? await asked
            return
        }
        // Two allowed: the reader's own read of them stays inside one batch either way.
        let allowed = candidates.prefix(2).compactMap { $0.split(separator: " ").first }.joined(separator: ",")
        let answer = try await broker.healthctl(["object-requests", "--answer", String(requestID), "--allow", allowed])
        #expect(answer.status == 0, "\(answer)")
        #expect(try await asked.okValue == "2 HKVisionPrescription,HKVisionPrescription")
    }

    /// The access log's entries name the types of each call, and how many is the caller's
    /// choice: an app that asks again for read access to every quantity and category type it was
    /// already granted (answered at once) leaves an entry of ~10 KB each time; ~450 such requests
    /// are ~4.5 MB. Before the fix `healthctl log --limit 5000` got them in one reply past the
    /// frame limit and failed; now they come in frames cut by bytes, every one of them.
    @Test func theAccessLogListsEveryEntryWhateverTheTypesTheyName() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install("org.test.frames-many-types", on: broker, grants: [])
        defer { app.close() }
        let types = HKObjectType.allTypes.filter { $0 is HKQuantityType || $0 is HKCategoryType }.map(\.identifier)
        let granted = try await broker.healthctl(["grant", "org.test.frames-many-types", "read"] + types)
        #expect(granted.status == 0, "\(granted)")
        // Every type decided: each request returns at once, and its entry names them all.
        let request = AuthorizationTypes(share: [], read: types).wireBytes()
        let requests = WireLimits.maxFrameBytes / request.count + 16
        for _ in 0..<requests {
            _ = try await app.client.unary(HealthStoreMethod.requestAuthorization.rawValue, request)
        }
        let log = try await broker.healthctl(["log", "--limit", "5000", "--json"])
        #expect(log.status == 0, "\(log.stderr.prefix(2_000))")
        let lines = log.stdout.split(separator: "\n")
        #expect(lines.count(where: { $0.contains("\"action\":\"request\"") }) == requests,
                "\(lines.count) lines, \(requests) requests of \(types.count) types")
    }

    /// A sample whose answer could not fit a frame is refused at its save with
    /// errorDataSizeExceeded naming the bound (`SavedSampleBound`); one at the bound is stored and
    /// read back whole, by the app and by the user's `healthctl samples`. Before the fix the larger workout was stored, and an
    /// answer carrying it (its source added) could pass the frame limit.
    @Test func aSampleNoAnswerFrameCouldHoldIsRefusedAtItsSave() async throws {
        let broker = try BrokerProcess()
        let writer = try await RawApp.install("org.test.frames-workout", on: broker, grants: [("share", HKWorkoutTypeIdentifier)])
        defer { writer.close() }
        let refused = await writer.saveRefusal([Self.workout(encodingTo: WireLimits.maxFrameBytes - 4_096)])
        #expect(refused?.healthKitCode == .errorDataSizeExceeded, "\(String(describing: refused))")
        #expect(refused?.message.contains("\(SavedSampleBound.maxSampleBytes)") == true, "\(String(describing: refused))")

        let atBound = Self.workout(encodingTo: SavedSampleBound.maxSampleBytes)
        let saved = try await writer.save([atBound])
        let read = try await writer.query(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier))
        #expect(read.map(\.uuid) == saved)
        guard case let .workout(workout) = read.first?.value, case let .workout(sent) = atBound.value else {
            Issue.record("no workout read back")
            return
        }
        #expect(workout.events.count == sent.events.count)
        let user = try await broker.healthctl(["samples", "workout", "--json"])
        #expect(user.status == 0 && user.stdout.contains(saved.first?.uuidString.lowercased() ?? "-"), "\(user.stderr.prefix(2_000))")
        #expect(workout.events.map(\.metadata) == sent.events.map(\.metadata))
    }

    /// An object's attachments come back in one reply, so the most one object may hold (16)
    /// must fit a frame whatever metadata the apps gave them. Before the fix each could carry the
    /// 64 × (256 + 4,096) bytes samples may — 16 came to ~4.6 MB — and the listing failed for every
    /// reader of the object, the owner's and the user's alike; now metadata past 192 KiB
    /// (`AttachmentLimits.maximumMetadataBytes`) is refused when the attachment is added, and 16
    /// at that bound list whole, to the app and to `healthctl attachments list`.
    @Test func sixteenAttachmentsAtTheMetadataBoundListWhole() async throws {
        let broker = try BrokerProcess()
        let owner = try await RawApp.install("org.test.frames-attach", on: broker, grants: [("share", Self.vision)])
        defer { owner.close() }
        guard let object = try await owner.save([Self.maximalPrescription(0)]).first else {
            Issue.record("the prescription was not saved")
            return
        }
        let ref = AttachmentObjectRef(uuid: object, typeIdentifier: Self.vision)
        func add(_ number: Int, metadata: [String: MetadataValue]) async throws -> UUID {
            let start = AttachmentUploadStart(object: ref, name: "scan \(number).pdf", contentType: "com.adobe.pdf", size: 1, metadata: metadata)
            let upload = try AttachmentUploadID(wire: try await owner.client.unary(HealthStoreMethod.beginAttachment.rawValue, start.wireBytes()))
            _ = try await owner.client.unary(HealthStoreMethod.appendAttachmentData.rawValue,
                                             AttachmentUploadChunk(uploadID: upload.id, offset: 0, data: [7]).wireBytes())
            let info = try AttachmentInfoMessage(wire: try await owner.client.unary(HealthStoreMethod.finishAttachment.rawValue, upload.wireBytes()))
            return info.attachment.identifier
        }
        func list() async throws -> [AttachmentRecord] {
            try AttachmentList(wire: try await owner.client.unary(HealthStoreMethod.listAttachments.rawValue,
                                                                 AttachmentListRequest(object: ref).wireBytes())).attachments
        }
        // Sixteen with sample-sized metadata: each refused, naming the bound (before the fix all
        // were stored, and the listing below failed: its reply passed the frame limit).
        var refusals: [RPCStatus] = []
        for number in 0..<AttachmentLimits.maximumPerObject {
            do {
                _ = try await add(number, metadata: Self.maximalMetadata)
            } catch let status as RPCStatus {
                refusals.append(status)
            }
        }
        #expect(refusals.count == AttachmentLimits.maximumPerObject)
        #expect(refusals.allSatisfy { $0.healthKitCode == .errorInvalidArgument && $0.message.contains("\(AttachmentLimits.maximumMetadataBytes)") },
                "\(refusals.first.map { "\($0)" } ?? "none refused")")
        #expect(try await list().isEmpty)

        let atBound: [String: MetadataValue] = Dictionary(uniqueKeysWithValues: Self.maximalMetadata.sorted { $0.key < $1.key }.prefix(44).map { ($0.key, $0.value) })
        #expect(MetadataSize.upperBound(of: atBound) <= AttachmentLimits.maximumMetadataBytes)
        var added: [UUID] = []
        for number in 0..<AttachmentLimits.maximumPerObject { added.append(try await add(number, metadata: atBound)) }

        let listed = try await list()
        #expect(listed.map(\.identifier) == added)
        #expect(listed.allSatisfy { $0.metadata == atBound })
        let user = try await broker.healthctl(["attachments", "list", object.uuidString.lowercased()])
        #expect(user.status == 0, "\(user.stderr)")
        for id in added { #expect(user.stdout.contains(id.uuidString.lowercased())) }
    }

    /// A running workout of marker events, each with maximal metadata, and one last event's
    /// metadata sized so the sample encodes to exactly `bytes` (within a few bytes of varint).
    static func workout(encodingTo bytes: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func record(events: [WorkoutEventRecord]) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(3_600),
                         value: .workout(WorkoutValue(activityType: 37, duration: 3_600, events: events)))
        }
        func event(_ number: Int, metadata: [String: MetadataValue]) -> WorkoutEventRecord {
            WorkoutEventRecord(type: 4, startDate: start.addingTimeInterval(Double(number)), endDate: start.addingTimeInterval(Double(number)),
                               metadata: metadata)
        }
        func size(_ sample: SampleRecord) -> Int { SampleList([sample]).wireBytes().count }
        var events: [WorkoutEventRecord] = []
        while size(record(events: events + [event(events.count, metadata: maximalMetadata)])) < bytes - 8_192 {
            events.append(event(events.count, metadata: maximalMetadata))
        }
        // What is left (less than one maximal event and 8 KiB) is padding in events of at most
        // 60 entries, its length found by bisection.
        func padded(_ length: Int) -> SampleRecord {
            var padding: [WorkoutEventRecord] = []
            var left = length
            while left > 0 {
                var entries: [String: MetadataValue] = [:]
                while left > 0, entries.count < 60 {
                    let take = min(left, SampleLimits.maximumMetadataStringBytes)
                    entries[String(format: "org.test.last%03d", entries.count)] = .string(String(repeating: "p", count: take))
                    left -= take
                }
                padding.append(event(events.count + padding.count, metadata: entries))
            }
            return record(events: events + padding)
        }
        var low = 0
        var high = bytes - size(record(events: events))
        while low < high {
            let middle = (low + high + 1) / 2
            if size(padded(middle)) <= bytes { low = middle } else { high = middle - 1 }
        }
        return padded(low)
    }
}
