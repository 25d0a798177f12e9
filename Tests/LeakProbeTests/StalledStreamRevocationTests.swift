import Foundation
import HealthModel
import HealthWire
import Testing
import TestSupport

/// DESIGN.md §7.6 ("a revoked permission takes effect at once, including on long-running
/// queries") for a *finite* answer a reader holds up: a confined `leak-probe-client` starts a
/// sample query, newest first, of about 6.4 MB, and stops reading as soon as its first bytes
/// arrive — healthd has handed the socket what it takes of the first batch (batches are cut at
/// `WireLimits.resultBatchBytes`, 1 MiB) and waits for the reader before it hands over the next
/// (`CallResponder`; before session 16 it queued batches up to a 1 MiB pause beyond the socket).
/// Then the reader loses the other app's rows, one way at a time (`Loss`), and reads the rest.
/// Those rows sort last (they are the oldest), or in the second batch (`Layout`), so not one of
/// them could have left before the loss. What it receives must be byte for byte (its own UUIDs aside) what it
/// receives in a twin world where the other app never saved them; the positive control, a reader
/// that loses nothing, must receive them there. Before `StreamVisibility`, every loss but none
/// still delivered them from the query's first reading (session 13's "left open").
@Suite(.serialized, .timeLimit(.minutes(10))) struct StalledStreamRevocationTests {
    /// The other app's rows sort last: healthd has not read them when the reader stalls.
    @Test func aStalledQueryStopsSendingWhatTheReaderLost() async throws {
        try await compare(.last)
    }

    /// The other app's rows are in the second batch: healthd has read them and — before the flow
    /// control choke point — queued their batch behind the first (its 1 MiB pause let it) while
    /// the reader stalled, and delivered it after the loss. Now a batch is built and checked only
    /// once everything before it on the connection went to the socket (`CallResponder.send`), so
    /// the loss reaches it. Failed before that with every loss (the hidden world received the
    /// other app's rows in batch 2).
    @Test func aStalledQueryDoesNotDeliverQueuedBatchesOfWhatTheReaderLost() async throws {
        try await compare(.secondBatch)
    }

    private func compare(_ layout: StalledStreamWorld.Layout) async throws {
        let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
        // Separate brokers and clients: built and stalled at once.
        async let hiddenBuilt = StalledStreamWorld(hidden: true, now: now, layout: layout)
        async let twinBuilt = StalledStreamWorld(hidden: false, now: now, layout: layout)
        let (hidden, twin) = try await (hiddenBuilt, twinBuilt)
        defer { hidden.stop() }
        defer { twin.stop() }
        for loss in StalledStreamWorld.Loss.allCases {
            async let hiddenReceived = hidden.stallAndRead(loss)
            async let twinReceived = twin.stallAndRead(loss)
            let (withOthers, without) = try await (hiddenReceived, twinReceived)
            #expect(withOthers.items.count >= 2 && without.items.count >= 2,
                    "\(layout), \(loss): the query must take at least two batches: \(withOthers.items.count) and \(without.items.count)")
            #expect(withOthers.ending == without.ending,
                    "\(layout), \(loss): the stream ended differently: \(withOthers.ending) vs \(without.ending)")
            if loss == .none {
                #expect(withOthers.items != without.items, "positive control: a reader that lost nothing must receive the other app's rows")
            } else {
                let differing = zip(withOthers.items, without.items).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
                #expect(withOthers.items.count == without.items.count && differing.isEmpty,
                        """
                        \(layout), \(loss): after the loss the stalled query still sent what the reader lost; batches differing at \(differing)
                          with the other app's rows: \(StalledStreamWorld.summary(withOthers.items))
                          twin:                      \(StalledStreamWorld.summary(without.items))
                        """)
            }
        }
    }
}

/// One broker for `StalledStreamRevocationTests`: one reader per `Loss`, each with its own 200
/// padded samples (recent, so newest first they come first and fill the first batches),
/// and — in the hidden world only — another app's three of the reader's type, years old.
final class StalledStreamWorld: Sendable {
    enum Loss: String, CaseIterable, CustomStringConvertible {
        /// The positive control: the reader keeps its read grant.
        case none
        /// The user revokes the reader's read permission for the type.
        case typeRead = "type-read"
        /// The user narrows the grant to a 30-day window, which the other app's rows are outside of.
        case window
        /// The user revokes, by UUID, the per-object grants of the other app's prescriptions.
        case perObject = "per-object"
        /// The user deletes the other app's rows.
        case deletion

        var description: String { rawValue }
        var reader: String { "org.probe.stalled.\(rawValue)" }
        /// A type of its own per reader, so no reader sees another's rows.
        var type: String {
            switch self {
            case .none: HKQuantityTypeIdentifier.flightsClimbed.rawValue
            case .typeRead: HKQuantityTypeIdentifier.stepCount.rawValue
            case .window: HKQuantityTypeIdentifier.pushCount.rawValue
            case .perObject: ProbeData.vision
            case .deletion: HKQuantityTypeIdentifier.swimmingStrokeCount.rawValue
            }
        }
    }

    /// Where the other app's rows sort in the reader's answer (newest first).
    enum Layout: String, CustomStringConvertible {
        /// Years old: last, outside a 30-day window.
        case last
        /// Between the reader's 40th and 41st rows, 60 days old (the reader's later rows are
        /// older still): in the second batch, still outside a 30-day window.
        case secondBatch = "second-batch"

        var description: String { rawValue }
        /// The reader's own rows: 200 for `last` (the other rows must stay unread), 100 otherwise.
        var ownCount: Int { self == .last ? 200 : 100 }

        func ownDate(_ index: Int, now: Date) -> Date {
            switch self {
            case .last: now.addingTimeInterval(-Double(index + 1) * 60)
            case .secondBatch: now.addingTimeInterval(-Double(index + 1) * 60 - (index < 40 ? 0 : 61 * 86_400))
            }
        }

        func otherDate(_ index: Int, now: Date) -> Date {
            switch self {
            case .last: ProbeData.time(-index * 60)
            case .secondBatch: now.addingTimeInterval(-60 * 86_400 - Double(index) * 60)
            }
        }
    }

    static let writer = "org.probe.stalled-writer"
    /// How many samples go in one save (under the 4 MiB frame).
    static let perSave = 100
    /// Each sample's padding, 8 entries of 4,000 bytes: 200 samples weigh about 6.4 MB. Batches
    /// are cut at 1 MiB (32 samples), and before session 16 healthd queued about two of them
    /// beyond what the socket holds before it waited for the reader (its 1 MiB pause), so the
    /// other app's rows — sorted last — were still unread when the reader stalled. (With 500-sample batches of one
    /// 3,000-byte entry, the first batch alone passed the pause; the byte cut made batches
    /// smaller and the old padding let the last batch be queued before the loss.)
    static let padding: [String: MetadataValue] = Dictionary(uniqueKeysWithValues: (0..<8).map {
        ("pad\($0)", MetadataValue.string(String(repeating: "p", count: 4_000)))
    })

    let broker: BrokerProcess
    let hidden: Bool
    let now: Date
    /// Each reader's own UUIDs, in save order; the other app's, by reader (hidden world only).
    private let own: [String: [UUID]]
    private let others: [String: [UUID]]

    init(hidden: Bool, now: Date, layout: Layout) async throws {
        self.hidden = hidden
        self.now = now
        broker = try BrokerProcess(extraArguments: ["--stalled-peer-timeout", "120"])
        try await broker.install(appID: Self.writer, executable: ProbeWorld.client)
        for loss in Loss.allCases { try await broker.set(Self.writer, "share", loss.type, allowed: true) }
        var own: [String: [UUID]] = [:]
        var others: [String: [UUID]] = [:]
        let writerSession = hidden ? try ProbeSession(Self.writer, adminSocket: broker.adminSocket) : nil
        for loss in Loss.allCases {
            try await broker.install(appID: loss.reader, executable: ProbeWorld.client)
            try await broker.set(loss.reader, "share", loss.type, allowed: true)
            if loss != .perObject { try await broker.set(loss.reader, "read", loss.type, allowed: true) }
            let session = try ProbeSession(loss.reader, adminSocket: broker.adminSocket)
            let records = (0..<layout.ownCount).map { Self.padded(loss.type, at: layout.ownDate($0, now: now)) }
            var uuids: [UUID] = []
            for start in stride(from: 0, to: records.count, by: Self.perSave) {
                uuids += try await ProbeData.save(Array(records[start..<min(start + Self.perSave, records.count)]), through: session)
            }
            own[loss.reader] = uuids
            try await session.finish()
            if let writerSession {
                // Outside a 30-day window; last, or in the second batch, when newest come first.
                let old = (0..<3).map { Self.padded(loss.type, at: layout.otherDate($0, now: now)) }
                others[loss.reader] = try await ProbeData.save(old, through: writerSession)
            }
            if loss == .perObject {
                try await ProbeWorld.answerObjectRequest(of: loss.reader, type: ProbeData.vision, allowing: others[loss.reader] ?? [], in: broker)
            }
        }
        try await writerSession?.finish()
        self.own = own
        self.others = others
    }

    /// A sample of `type` at `date` carrying `padding` in its metadata.
    static func padded(_ type: String, at date: Date) -> SampleRecord {
        let value: SampleRecord.Value = type == ProbeData.vision
            ? .visionPrescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: true,
                                                          expirationDate: date.addingTimeInterval(365 * 86_400),
                                                          rightEye: LensSpecificationValue(sphere: -1.5),
                                                          leftEye: LensSpecificationValue(sphere: -1.25)))
            : .quantity(7, unit: "count")
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: date, endDate: date, value: value,
                            metadata: padding)
    }

    /// What a stalled reader received: each message's payload with its own UUIDs replaced by
    /// their save position, and how the stream ended.
    struct Received: Equatable {
        var items: [[UInt8]]
        var ending: String
    }

    /// Starts `loss`'s reader's query, newest first; once healthd has begun answering (and waits
    /// for the reader), the user makes `loss` happen; then the reader reads everything.
    func stallAndRead(_ loss: Loss) async throws -> Received {
        let session = try ProbeSession(loss.reader, adminSocket: broker.adminSocket)
        let query = SampleQuerySpec(typeIdentifier: loss.type, sort: [SampleSort(.startDate, ascending: false)])
        _ = try await session.run("slow \(HealthStoreMethod.querySamples.rawValue) \(ProbeTranscript.hex(query.wireBytes()))")
        for command in commands(for: loss) {
            let result = try await broker.healthctl(command)
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }
        let lines = try await session.run("read")
        try await session.finish()
        let positions = Dictionary(uniqueKeysWithValues: (own[loss.reader] ?? []).enumerated().map { (Self.key($0.element), $0.offset) })
        let items = lines.compactMap { line -> [UInt8]? in
            guard line.hasPrefix("item ") else { return nil }
            return ProbeTranscript.payload(of: line).map { Self.replacingUUIDs($0, positions) }
        }
        return Received(items: items, ending: lines.last { $0 == "end" || $0.hasPrefix("status ") } ?? "none")
    }

    /// The user's commands for `loss` (in the twin world, the same commands; the other app's
    /// UUIDs it names, it does not hold).
    private func commands(for loss: Loss) -> [[String]] {
        let theirs = (others[loss.reader] ?? []).map { $0.uuidString.lowercased() }
        switch loss {
        case .none: return []
        case .typeRead: return [["revoke", loss.reader, "read", loss.type]]
        case .window: return [["grant", loss.reader, "read", loss.type, "--window", "30d"]]
        case .perObject: return theirs.isEmpty ? [] : [["object-grants", loss.reader, "--revoke", theirs.joined(separator: ",")]]
        case .deletion: return theirs.map { ["delete", $0, "--yes"] }
        }
    }

    private struct UUIDKey: Hashable {
        let high: UInt64, low: UInt64
    }

    private static func key(_ uuid: UUID) -> UUIDKey {
        withUnsafeBytes(of: uuid.uuid) { UUIDKey(high: $0.loadUnaligned(as: UInt64.self), low: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// `payload` with every 16-byte field (length byte 16, then the bytes) that holds one of the
    /// reader's own UUIDs replaced by its save position: the broker mints UUIDs afresh in each world.
    private static func replacingUUIDs(_ payload: [UInt8], _ positions: [UUIDKey: Int]) -> [UInt8] {
        var bytes = payload
        var index = 1
        while index + 16 <= bytes.count {
            guard bytes[index - 1] == 16 else {
                index += 1
                continue
            }
            let candidate = bytes.withUnsafeBytes {
                UUIDKey(high: $0.loadUnaligned(fromByteOffset: index, as: UInt64.self),
                        low: $0.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
            }
            if let position = positions[candidate] {
                withUnsafeBytes(of: UInt64(position).littleEndian) { replacement in
                    for offset in 0..<16 { bytes[index + offset] = offset < 8 ? replacement[offset] : 0 }
                }
                index += 16
            } else {
                index += 1
            }
        }
        return bytes
    }

    /// Each batch as its size and the sources of its samples, for a failure's message.
    static func summary(_ items: [[UInt8]]) -> String {
        items.map { item in
            guard let batch = try? SampleList(wire: item) else { return "(undecodable, \(item.count) bytes)" }
            let sources = Dictionary(grouping: batch.samples, by: { $0.source?.bundleIdentifier ?? "-" }).mapValues(\.count)
            return "\(batch.samples.count) [\(sources.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))]"
        }.joined(separator: "; ")
    }

    func stop() { broker.stop() }
}
