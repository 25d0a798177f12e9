import AppleHealthExport
import Foundation
import HealthModel
import HealthWire
import Synchronization

/// The reading half of `healthctl import`: runs the export reader on a thread of its own and
/// turns what it reads into batches for healthd, each of one source and one type (so healthd's
/// counts of new and unchanged samples are exact per type).
///
/// The reader is a blocking `XMLParser`; the RPCs are async. The reader thread hands finished
/// batches to an `AsyncThrowingStream` and waits (a semaphore, on its own thread, never on the
/// cooperative pool) while `maxQueuedBatches` are unsent. Open batches together hold at most
/// `maxOpenSamples` samples and `maxOpenBytes` bytes (past either the largest is sent early), and
/// every batch holds its samples packed (`ImportRequestBuilder`), so memory stays bounded — and
/// small — whatever the file's size.
final class ImportPipeline: @unchecked Sendable {
    // @unchecked: the open batches and `lineReached` belong to the reader thread; the tally,
    // shared with the consumer, sits behind a mutex.
    /// Samples per batch: each batch is one transaction (one commit) in healthd, so fewer,
    /// larger batches spend less on commits; `maxBatchBytes` keeps any batch inside one frame.
    /// 8,000 plain records pack into about 2 MiB. Each commit rewrites every index page its
    /// samples touch, and the sync-identifier index is touched at random (the identifiers are
    /// digests), so a batch twice as large writes fewer pages per sample (session 11,
    /// Benchmarks/README.md); healthd takes up to `WireLimits.maxSamplesPerSave` (10,000). A
    /// file interleaving many sources and types sends its batches earlier (`maxOpenSamples`).
    static let batchSize = 8_000
    /// Batches read ahead of healthd, beyond those in flight.
    static let maxQueuedBatches = 2
    /// Batches sent and not yet answered: healthd decodes and checks one while it stores another.
    static let maxBatchesInFlight = 2
    /// Samples in all open batches together. An export interleaves its sources and types (the
    /// generated benchmark file has twelve), so past this the fullest is sent early; raising it to
    /// let twelve batches of 8,000 fill cut healthd's bytes written by a sixth but not measurably
    /// its CPU, and cost healthctl 25–45 MB of RSS that grew with the file (session 11).
    static let maxOpenSamples = 40_000
    /// Packed bytes of all open batches together: with 4 batches queued or in flight of at most
    /// `maxBatchBytes` each, the import holds at most about 16 MiB of samples.
    static let maxOpenBytes = 8 << 20
    /// A batch's samples' packed bytes stay below this, half a 4 MiB frame: a sample may carry up
    /// to 64 metadata entries of 4 KiB each, so a count alone bounds nothing.
    static let maxBatchBytes = 2 << 20
    /// Route points per batch: a batch must fit in one 4 MiB frame (about 75 bytes a point).
    static let maxBatchLocations = 40_000
    /// Heartbeats and ECG voltages per batch (about 9 bytes each on the wire).
    static let maxBatchSeriesPoints = 200_000

    /// One batch: its request, packed sample by sample as samples arrive (`ImportRequestBuilder`),
    /// so an open or queued batch holds wire bytes, not records.
    struct Batch: Sendable {
        var typeIdentifier: String
        var request: ImportRequestBuilder
        var locationCount = 0
        var seriesPointCount = 0
        /// The sync identifiers of the batch's samples while it is open (emptied when it is taken):
        /// kept with the batch so one lookup by key finds both. Compact keys (`BatchSyncKey`).
        var syncIdentifiers: Set<BatchSyncKey> = []
        /// Elements read so far, for progress.
        var readSoFar: Int
        var lineReached: Int

        var sampleCount: Int { request.sampleCount }
        var routes: [ImportedRoute] { request.routes }

        /// Whether a sample of `bytes`, `locations` and `seriesPoints` would take the batch past
        /// a bound: then the batch is sent first.
        func wouldOverflow(bytes: Int, locations: Int, seriesPoints: Int) -> Bool {
            sampleCount > 0 && (locationCount + locations > ImportPipeline.maxBatchLocations
                || seriesPointCount + seriesPoints > ImportPipeline.maxBatchSeriesPoints
                || request.sampleBytes + bytes > ImportPipeline.maxBatchBytes)
        }

        /// Adds a packed sample (its sync identifier, whether that is dated, and its routes, whose workout it is) and
        /// tells whether the batch is now full by any of its bounds.
        mutating func append(packed: [UInt8], sync: BatchSyncKey?, dated: Bool, routes: [[RouteLocation]], locations: Int,
                             seriesPoints: Int) -> Bool {
            request.append(packed: packed, routes: routes, datedIdentity: dated && sync != nil)
            if let sync { syncIdentifiers.insert(sync) }
            locationCount += locations
            seriesPointCount += seriesPoints
            return sampleCount >= ImportPipeline.batchSize || locationCount >= ImportPipeline.maxBatchLocations
                || seriesPointCount >= ImportPipeline.maxBatchSeriesPoints || request.sampleBytes >= ImportPipeline.maxBatchBytes
        }
    }

    let file: AppleHealthExportFile
    let origin = "Apple Health"
    let tallied = Mutex(ImportTally())
    var tally: ImportTally { tallied.withLock { $0 } }
    private let readCharacteristics = Mutex<ExportCharacteristics?>(nil)
    var characteristics: ExportCharacteristics? { readCharacteristics.withLock { $0 } }
    private var openBatches: [BatchKey: Batch] = [:]
    /// The validator's last type and unit plan (`SampleValidator.RecentLookups`): an export
    /// lists long runs of one type. Used on the reader thread only, like the open batches.
    private var validatorLookups = SampleValidator.RecentLookups()
    private var openSamples = 0
    private var openBytes = 0
    /// Batches that may be handed out and not yet answered. Made at 0 and raised to its slots:
    /// libdispatch traps (SIGILL) when a semaphore is freed with a value below the one it was made
    /// with, which is the case whenever an import stops with batches unanswered (healthd refused
    /// one) — healthctl crashed there instead of printing healthd's reason.
    private let room: DispatchSemaphore = {
        let semaphore = DispatchSemaphore(value: 0)
        for _ in 0..<(ImportPipeline.maxQueuedBatches + ImportPipeline.maxBatchesInFlight) { semaphore.signal() }
        return semaphore
    }()
    /// Set when the consumer stopped listening (an error, or the stream dropped): the reader
    /// stops at its next batch instead of reading the rest of the file for nobody.
    private let consumerGone = Atomic<Bool>(false)
    private var lineReached = 0
    /// The sample being added, packed; reused from sample to sample.
    private var packed: [UInt8] = []
    /// The document files `CDADocument` elements named (`/cda-documents/…`), and the export's
    /// date: what a file no element names is read with after export.xml (ImportPipeline+Documents).
    var namedDocumentPaths: Set<String> = []
    var exportDate: Date?

    private struct BatchKey: Hashable { var name: String?; var version: String?; var type: String }

    init(file: AppleHealthExportFile) {
        self.file = file
    }

    /// Starts reading; the stream yields batches and ends (or fails with the reader's error).
    func batches() -> AsyncThrowingStream<Batch, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Batch.self)
        continuation.onTermination = { [weak self] _ in
            self?.consumerGone.store(true, ordering: .sequentiallyConsistent)
            self?.room.signal()  // a reader waiting for room wakes and sees it
        }
        let thread = Thread { [self] in
            let deliver = { (batch: Batch) throws in
                self.room.wait()
                guard !self.consumerGone.load(ordering: .sequentiallyConsistent),
                      case .enqueued = continuation.yield(batch) else { throw ImportStopped() }
            }
            do {
                try file.read(progress: { self.lineReached = $0 }) { item in
                    try self.accept(item, ship: deliver)
                }
                try acceptElectrocardiograms(ship: deliver)
                try acceptUnnamedDocuments(ship: deliver)
                while let batch = takeFullestOpenBatch() {
                    try deliver(batch)
                }
                for (element, count) in file.skippedElements {
                    tallied.withLock { $0.notImported("<\(element)> elements", count: count, reason: "not a kind of data this store imports yet") }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.stackSize = 1 << 22
        thread.start()
        return stream
    }

    /// The reader's way out when nobody takes its batches any more.
    private struct ImportStopped: Error {}

    /// The consumer sent a batch: one more may be queued.
    func batchSent() { room.signal() }

    /// Converts one item and adds it to its batch; `ship` sends a batch that is full.
    private func accept(_ item: ExportItem, ship: (Batch) throws -> Void) throws {
        guard let imported = convert(item) else { return }
        try add(imported, ship: ship)
        if case let .record(record) = item, !record.beats.isEmpty {
            try addHeartbeatSeries(of: record, hrv: imported.record, ship: ship)
        }
    }

    /// Validates a converted sample and adds it to its batch; `ship` sends a batch that is full.
    func add(_ imported: ImportedSample, ship: (Batch) throws -> Void) throws {
        // Checked here exactly as healthd will check it, so one bad record is refused alone
        // instead of failing the batch it travels in.
        let record: SampleRecord
        do {
            record = try SampleValidator.canonicalized(imported.record, using: &validatorLookups)
        } catch {
            let type = imported.record.typeIdentifier
            tallied.withLock { $0.refused(type, error.message) }
            return
        }
        let key = BatchKey(name: imported.sourceName, version: imported.sourceVersion, type: record.typeIdentifier)
        // The key is hashed once per record: its batch is then reached by position, changed in
        // place (a copy taken out and put back would copy the whole batch for every record — it
        // did: 70 s for 134,000 records). A position stays valid until a batch is added or taken.
        var position = openBatches.index(forKey: key)
        // An export can hold the same record twice; a batch may not (healthd refuses duplicate
        // sync identifiers in one save), and the store already dedupes across batches.
        var sync: BatchSyncKey?
        if case let .string(identifier)? = record.metadata[HKMetadataKeySyncIdentifier] {
            let identifier = BatchSyncKey(identifier)
            if let position, openBatches.values[position].syncIdentifiers.contains(identifier) {
                tallied.withLock { $0.stored(key.type, added: 0, unchanged: 1) }
                return
            }
            sync = identifier
        }
        let routes = self.routes(of: imported, workout: record)
        let locations = routes.reduce(0) { $0 + $1.count }
        let points = Self.seriesPoints(record)
        // Packed now: its exact size decides whether the open batch must go first, and the
        // batch keeps these bytes instead of the record.
        ImportRequestBuilder.pack(record, into: &packed)
        if let open = position, openBatches.values[open].wouldOverflow(bytes: packed.count, locations: locations, seriesPoints: points),
           let full = take(key) {
            position = nil
            try ship(full)
        }
        // The identifier is noted after a batch sent early above, so it is in its own batch's set.
        let full: Bool
        if let position {
            full = openBatches.values[position].append(packed: packed, sync: sync, dated: imported.datedIdentity, routes: routes,
                                                       locations: locations, seriesPoints: points)
        } else {
            full = openBatches[key, default: Batch(typeIdentifier: key.type,
                                                   request: ImportRequestBuilder(origin: origin, sourceName: key.name ?? "",
                                                                                 sourceVersion: key.version),
                                                   readSoFar: 0, lineReached: 0)]
                .append(packed: packed, sync: sync, dated: imported.datedIdentity, routes: routes, locations: locations,
                        seriesPoints: points)
        }
        openSamples += 1
        openBytes += packed.count
        if full, let batch = take(key) {
            try ship(batch)
        }
        while openSamples > Self.maxOpenSamples || openBytes > Self.maxOpenBytes, let fullest = takeFullestOpenBatch() {
            try ship(fullest)
        }
    }

    /// The sample an item becomes, or nil when it is not imported as a sample (tallied here).
    private func convert(_ item: ExportItem) -> ImportedSample? {
        do throws(ImportRefusal) {
            switch item {
            case let .record(record):
                tallied.withLock { $0.countRead() }
                return try ExportConversion.sample(record)
            case let .correlation(correlation):
                tallied.withLock { $0.countRead() }
                return try ExportConversion.sample(correlation)
            case let .workout(workout):
                tallied.withLock { $0.countRead() }
                return try ExportConversion.sample(workout)
            case let .audiogram(audiogram):
                tallied.withLock { $0.countRead() }
                return try ExportConversion.sample(audiogram)
            case let .stateOfMind(element):
                tallied.withLock { $0.countRead() }
                return try ExportConversion.sample(element)
            case let .scoredAssessment(element):
                tallied.withLock { $0.countRead() }
                return try ExportConversion.sample(element)
            case let .document(element):
                tallied.withLock { $0.countRead() }
                if let path = element.filePath { namedDocumentPaths.insert(Self.documentKey(path)) }
                return try document(element)
            case let .visionPrescription(prescription):
                tallied.withLock {
                    $0.countRead()
                    if prescription.attachments > 0 {
                        $0.notImported("vision prescription images", count: prescription.attachments,
                                       reason: "the export names them without their image data")
                    }
                }
                return try ExportConversion.sample(prescription)
            case .activitySummary:
                tallied.withLock { $0.notImported("activity summaries", reason: "computed from the imported samples, as HealthKit does") }
                return nil
            case let .me(values):
                readCharacteristics.withLock { $0 = values }
                return nil
            case let .exportDate(date):
                exportDate = date
                return nil
            case let .clinicalRecord(clinical):
                tallied.withLock { $0.countRead() }
                let resource: Data
                do {
                    resource = try file.clinicalResource(at: clinical.resourceFilePath, line: clinical.line)
                } catch {
                    tallied.withLock { $0.refused(clinical.type, "\(error)") }
                    return nil
                }
                return try ExportConversion.sample(clinical, resource: resource)
            }
        } catch {
            tallied.withLock { $0.refused(error.type, error.reason) }
            return nil
        }
    }

    /// The locations of each route of an imported workout that can be stored with it, in time
    /// order, as RouteLocations; a route that cannot (unreadable GPX, points outside the workout,
    /// more points than one batch carries) is refused alone and the workout imported without it.
    private func routes(of imported: ImportedSample, workout: SampleRecord) -> [[RouteLocation]] {
        imported.routes.compactMap { (route) -> [RouteLocation]? in
            let type = HKWorkoutRouteTypeIdentifier
            let points: [ExportLocation]
            if let path = route.filePath {
                do {
                    points = try file.routeLocations(at: path)
                } catch {
                    tallied.withLock { $0.refused(type, "route file unreadable: \(error)") }
                    return nil
                }
            } else {
                points = route.locations
            }
            let locations = points.map(Self.routeLocation).sorted { $0.timestamp < $1.timestamp }
            guard let first = locations.first?.timestamp, let last = locations.last?.timestamp else {
                tallied.withLock { $0.refused(type, "route without points") }
                return nil
            }
            guard locations.count <= Self.maxBatchLocations else {
                tallied.withLock { $0.refused(type, "routes of more than \(Self.maxBatchLocations) points are not imported yet") }
                return nil
            }
            do throws(HKError) {
                try RouteLocationValidator.check(locations)
                try RouteLocationValidator.checkInside(workout.startDate, workout.endDate, firstLocation: first, lastLocation: last)
            } catch {
                tallied.withLock { $0.refused(type, error.message) }
                return nil
            }
            return locations
        }
    }

    /// A GPX or inline point as a route location. What the export leaves out takes CoreLocation's
    /// "unknown": course and speed −1, altitude 0 with vertical accuracy −1; a horizontal
    /// accuracy not given is 0.
    static func routeLocation(_ point: ExportLocation) -> RouteLocation {
        RouteLocation(timestamp: point.date, latitude: point.latitude, longitude: point.longitude,
                      altitude: point.altitude ?? 0, horizontalAccuracy: point.horizontalAccuracy ?? 0,
                      verticalAccuracy: point.altitude == nil ? -1 : (point.verticalAccuracy ?? 0),
                      course: point.course ?? -1, speed: point.speed ?? -1)
    }

    private func take(_ key: BatchKey) -> Batch? {
        guard var batch = openBatches.removeValue(forKey: key) else { return nil }
        batch.syncIdentifiers = []  // not needed past here; not carried to the consumer
        openSamples -= batch.sampleCount
        openBytes -= batch.request.sampleBytes
        batch.readSoFar = tallied.withLock { $0.read }
        batch.lineReached = lineReached
        return batch
    }

    private func takeFullestOpenBatch() -> Batch? {
        guard let key = openBatches.max(by: { $0.value.request.sampleBytes < $1.value.request.sampleBytes })?.key else { return nil }
        return take(key)
    }

    /// Records what healthd did with a batch.
    func record(_ batch: Batch, outcome: ImportOutcome) {
        tallied.withLock {
            $0.stored(batch.typeIdentifier, added: outcome.added, unchanged: outcome.unchanged)
            if !batch.routes.isEmpty {
                $0.stored(HKWorkoutRouteTypeIdentifier, added: outcome.routesAdded, unchanged: outcome.routesUnchanged)
            }
        }
    }
}
