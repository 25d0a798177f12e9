import Foundation
import HealthModel

/// What an app's object takes in the store, estimated from the record as it is saved: the bytes
/// an app is charged for it (`StorageUse`). One function for every object, computed where the row
/// is inserted (`SampleInserter`) and kept with the row (`objects.charged`, v66), so a deletion gives
/// back exactly what the save charged, whatever the estimate's errors.
///
/// Why an estimate per object and not the request's encoded size: a deletion names objects, not
/// requests; a request's bytes cannot be split over its objects fairly (a save of one large ECG and
/// 999 step counts, of which the app then deletes the step counts, would keep the ECG charged at a
/// thousandth of its size). Why not measured pages: SQLite does not say which pages one row
/// grew, and asking costs statements per save.
///
/// `objectRow` is measured (Benchmarks/README.md, "Session 20: storage bound": what the database
/// file grows by per plain sample, pages and index slack included); the tombstone and the side
/// tables' elements are estimated from their columns and index entries; texts count at their
/// UTF-8 size.
enum StoredSize {
    /// An object's row in `objects` and its entries in the table's five indexes, for a sample
    /// without metadata, device or sync identifier: `store-bench storage 30|90 --bare` grew the
    /// database file by 191–192 bytes a sample (129,600 and 388,800 samples of three types).
    static let objectRow: Int64 = 192
    /// A deletion's row in `deleted_objects` and its index entries, without a sync identifier
    /// (estimated: about half an object's).
    static let tombstoneRow: Int64 = 96
    /// An object's reference to its device beside the device's text (`device(_:)`).
    static let deviceReference: Int64 = 8

    /// The bytes `record`'s own row and side rows take: its row, metadata, sync identifier and
    /// the value's side rows, given back when it is deleted. A correlation's samples are charged
    /// as the objects they are (each inserted on its own), not in the correlation's charge; its
    /// device apart (`device(_:)`).
    /// `sync`: the record's sync identity, which its writer has already read from its metadata.
    static func charge(of record: SampleRecord, sync: SyncIdentity?) -> Int64 {
        var bytes = objectRow + metadata(record.metadata)
        if let sync {
            // The identifier is stored twice (its column and the sync key), each in an index.
            bytes += 4 * Int64(sync.identifier.utf8.count)
        }
        if let series = record.quantitySeries {
            bytes += Int64(series.count) * 40
        }
        return bytes + value(record.value)
    }

    /// What stays of an object once it is deleted: its tombstone (`ObjectDeleter`), charged to its
    /// app for as long as the store keeps it (deletions are never pruned).
    static func tombstone(syncIdentifier: String?) -> Int64 {
        tombstoneRow + Int64(syncIdentifier?.utf8.count ?? 0)
    }

    /// An object's device: charged with every object that names one and kept when the object is
    /// deleted. Device rows are shared by every source and never deleted, so an app that saved
    /// and deleted samples naming ever new devices would otherwise grow `devices` without bound;
    /// charging each object its device's text bounds that table by what its apps were charged
    /// (a row takes about three times its text: fields, fingerprint, index). Not "once per new
    /// row": whether a save makes a row depends on what other apps saved, which an app at its
    /// bound could then read off its refusals (DESIGN.md §7.3).
    static func device(_ device: DeviceRecord?) -> Int64 {
        guard let device else { return 0 }
        // Summed field by field: an array of them would be an allocation per saved row.
        var text = device.name?.utf8.count ?? 0
        text += device.manufacturer?.utf8.count ?? 0
        text += device.model?.utf8.count ?? 0
        text += device.hardwareVersion?.utf8.count ?? 0
        text += device.firmwareVersion?.utf8.count ?? 0
        text += device.softwareVersion?.utf8.count ?? 0
        text += device.localIdentifier?.utf8.count ?? 0
        text += device.udiDeviceIdentifier?.utf8.count ?? 0
        return deviceReference + Int64(text)
    }

    /// The same estimate for a row stored before v66 (no `charged` value), in SQL over `objects`
    /// aliased `o`: the row and its metadata text (side rows are not counted). The migration seeds
    /// each app's use with it and a deletion of such a row gives the same back.
    static let legacyObjectSQL = """
        (\(objectRow) + coalesce(length(CAST(o.metadata AS BLOB)), 0) \
        + 4 * coalesce(length(CAST(o.sync_identifier AS BLOB)), 0))
        """

    /// A metadata dictionary as stored (JSON text): keys, values and punctuation.
    static func metadata(_ metadata: [String: MetadataValue]) -> Int64 {
        guard !metadata.isEmpty else { return 0 }
        var bytes: Int64 = 2
        for (key, value) in metadata {
            bytes += Int64(key.utf8.count) + 8
            switch value {
            case let .string(text): bytes += Int64(text.utf8.count) + 2
            case let .quantity(_, unit): bytes += Int64(unit.utf8.count) + 24
            case .number, .date: bytes += 24
            case .bool: bytes += 5
            }
        }
        return bytes
    }

    /// The value's side rows.
    private static func value(_ value: SampleRecord.Value) -> Int64 {
        switch value {
        case .quantity, .category, .correlation:
            return 0
        case let .workout(workout):
            var bytes: Int64 = 64 + Int64(workout.associatedSampleUUIDs.count) * 32
            for event in workout.events { bytes += 48 + metadata(event.metadata) }
            for activity in workout.activities {
                bytes += 96 + metadata(activity.metadata) + Int64(activity.statistics.count) * 96
            }
            return bytes + Int64(workout.statistics.count) * 96
        case let .workoutRoute(locationCount):
            // A location is eight doubles, its time and position, in a WITHOUT ROWID table.
            return Int64(locationCount) * 88
        case let .heartbeatSeries(series):
            return 16 + Int64(series.beats?.count ?? series.count) * 16
        case let .electrocardiogram(ecg):
            return 48 + Int64(ecg.voltages?.count ?? ecg.voltageCount) * 8
        case let .stateOfMind(state):
            return 32 + Int64(state.labels.count + state.associations.count) * 16
        case let .scoredAssessment(assessment):
            return 16 + Int64(assessment.answers.count) * 8
        case let .audiogram(audiogram):
            return 16 + audiogram.points.reduce(0) { $0 + 24 + Int64($1.tests.count) * 48 }
        case let .document(document):
            return 32 + Int64(document.data.count)
        case let .clinicalRecord(record):
            return 32 + Int64(record.data.count + record.displayName.utf8.count + record.resourceType.utf8.count
                + record.identifier.utf8.count + (record.sourceURL?.utf8.count ?? 0) + record.fhirVersion.utf8.count)
        case let .visionPrescription(prescription):
            return 64 + Int64(prescription.brand?.utf8.count ?? 0) + (prescription.rightEye == nil ? 0 : 96)
                + (prescription.leftEye == nil ? 0 : 96)
        case let .medicationDoseEvent(event):
            return 48 + Int64(event.medicationConceptIdentifier.utf8.count + event.unit.utf8.count)
        case let .userAnnotatedMedication(medication):
            let codings = medication.relatedCodings.reduce(Int64(0)) { total, coding in
                total + 16 + Int64(coding.system.utf8.count + (coding.version?.utf8.count ?? 0) + coding.code.utf8.count)
            }
            return 48 + Int64(medication.conceptIdentifier.utf8.count + medication.displayText.utf8.count
                + medication.generalForm.utf8.count + (medication.nickname?.utf8.count ?? 0)) + codings
        }
    }
}
