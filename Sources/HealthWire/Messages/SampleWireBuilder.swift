import COpenHealthProto
import HealthModel

/// Builds `openhealth.v1.Sample` messages from `SampleRecord`s into one arena, for one message.
///
/// The parts that repeat from sample to sample — type identifier, unit, source, device — are
/// built once and then shared by every sample that has them: protobuf-c only reads them while
/// packing, and packs a shared part into each sample's bytes exactly as it would a copy. A
/// query's batch holds one type from a few sources and devices, and building each sample's own
/// copies of these (four nested messages' worth of strings) was a large part of encoding one
/// (Benchmarks/README.md, "Query benchmark"). A struct, so that updating what it remembers is
/// checked for exclusive access when compiled, not at run time on every sample.
struct SampleWireBuilder {
    private let arena: WireArena
    private var types = RecentlyBuilt<String, UnsafeMutablePointer<CChar>>()
    private var units = RecentlyBuilt<String, UnsafeMutablePointer<CChar>>()
    private var sources = RecentlyBuilt<SourceRecord, UnsafeMutablePointer<Openhealth__V1__SourceRevision>>()
    private var devices = RecentlyBuilt<DeviceRecord, UnsafeMutablePointer<Openhealth__V1__Device>>()

    init(in arena: WireArena) {
        self.arena = arena
    }

    /// The messages for `records`, in order.
    mutating func build(_ records: [SampleRecord]) -> [UnsafeMutablePointer<Openhealth__V1__Sample>] {
        var built: [UnsafeMutablePointer<Openhealth__V1__Sample>] = []
        built.reserveCapacity(records.count)
        for record in records { built.append(build(record)) }
        return built
    }

    mutating func build(_ record: SampleRecord) -> UnsafeMutablePointer<Openhealth__V1__Sample> {
        // Filled through the pointer rather than in `arena.message`'s closure, which would
        // capture (and copy) the whole record once per sample.
        let wire: UnsafeMutablePointer<Openhealth__V1__Sample> = arena.message()
        wire.pointee.uuid = arena.bytes(of: record.uuid)
        wire.pointee.type = types.part(for: record.typeIdentifier) { arena.string(record.typeIdentifier) }
        wire.pointee.start_us = record.startDate.microsecondsSince1970
        wire.pointee.end_us = record.endDate.microsecondsSince1970
        switch record.value {
        case let .quantity(value, unit):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_QUANTITY
            let quantity: UnsafeMutablePointer<Openhealth__V1__Quantity> = arena.message()
            quantity.pointee.value = value
            quantity.pointee.unit = units.part(for: unit) { arena.string(unit) }
            wire.pointee.quantity = quantity
            if let series = record.quantitySeries {
                wire.pointee.quantity_series = QuantitySeriesWire.build(series, in: arena)
            }
        case let .category(value):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_CATEGORY_VALUE
            wire.pointee.category_value = Int64(value)
        case let .workout(workout):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_WORKOUT
            wire.pointee.workout = WorkoutWire.build(workout, in: arena)
        case let .workoutRoute(count):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_ROUTE_LOCATION_COUNT
            wire.pointee.route_location_count = UInt64(max(0, count))
        case let .heartbeatSeries(series):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_HEARTBEAT_SERIES
            wire.pointee.heartbeat_series = SeriesWire.build(series, in: arena)
        case let .electrocardiogram(ecg):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_ELECTROCARDIOGRAM
            wire.pointee.electrocardiogram = SeriesWire.build(ecg, in: arena)
        case let .stateOfMind(stateOfMind):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_STATE_OF_MIND
            wire.pointee.state_of_mind = StateOfMindWire.build(stateOfMind, in: arena)
        case let .scoredAssessment(assessment):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_SCORED_ASSESSMENT
            wire.pointee.scored_assessment = ScoredAssessmentWire.build(assessment, in: arena)
        case let .audiogram(audiogram):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_AUDIOGRAM
            wire.pointee.audiogram = AudiogramWire.build(audiogram, in: arena)
        case let .document(document):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_DOCUMENT
            wire.pointee.document = DocumentWire.build(document, in: arena)
        case let .clinicalRecord(record):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_CLINICAL_RECORD
            wire.pointee.clinical_record = ClinicalRecordWire.build(record, in: arena)
        case let .visionPrescription(prescription):
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_VISION_PRESCRIPTION
            wire.pointee.vision_prescription = VisionPrescriptionWire.build(prescription, in: arena)
        case .medicationDoseEvent, .userAnnotatedMedication:
            wire.pointee.value_case = OPENHEALTH__V1__SAMPLE__VALUE_MEDICATION
            wire.pointee.medication = MedicationWire.build(record.value, in: arena)
        case let .correlation(objects):
            let built = build(objects)
            wire.pointee.n_correlation_objects = built.count
            wire.pointee.correlation_objects = arena.messages(built)
        }
        if !record.metadata.isEmpty {
            let entries = record.metadata.sorted { $0.key < $1.key }.map { key, value in
                MetadataWire.build(key, value, in: arena)
            }
            wire.pointee.n_metadata = entries.count
            wire.pointee.metadata = arena.messages(entries)
        }
        if let device = record.device {
            wire.pointee.device = devices.part(for: device) { DeviceWire.build(device, in: arena) }
        }
        if let source = record.source {
            wire.pointee.source_revision = sources.part(for: source) { SourceRevisionWire.build(source, in: arena) }
        }
        return wire
    }
}

/// The last few distinct keys met and the part built for each. A linear search: a batch holds
/// few distinct values, and comparing strings that share storage (as a batch's usually do) is
/// cheaper than hashing them.
private struct RecentlyBuilt<Key: Equatable, Part> {
    private static var capacity: Int { 8 }
    private var entries: [(key: Key, part: Part)] = []

    mutating func part(for key: Key, build: () -> Part) -> Part {
        if let known = entries.first(where: { $0.key == key }) { return known.part }
        let part = build()
        if entries.count == Self.capacity { entries.removeFirst() }
        entries.append((key, part))
        return part
    }
}
