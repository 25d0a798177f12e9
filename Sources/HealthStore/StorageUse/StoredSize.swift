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
/// tables' elements are estimated from their columns and index entries. A text counts as many
/// times as the store holds it, in the form it is held: JSON metadata at its encoded length
/// (`MetadataCoding.encodedLength`, escapes included), a device's text three times (its columns,
/// its fingerprint and the fingerprint's index), a text in an index once more (session 21
/// availability review, finding 3: control-character metadata stored 6.2 times its charge).
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
    /// `sourceVersion`: the saving app's version (up to 256 bytes), stored in every object's row.
    static func charge(of record: SampleRecord, sync: SyncIdentity?, sourceVersion: String?) -> Int64 {
        // The row's other texts, which decide with the metadata how many pages it takes.
        let version = Int64(sourceVersion?.utf8.count ?? 0)
        let rest = bareObjectPayload + version + Int64(sync?.identifier.utf8.count ?? 0)
        var bytes = objectRow + version + metadata(record.metadata, besides: rest, in: .table)
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

    /// An object's device: what a new row of it takes, charged with the first object of a write
    /// that names it and each object whose device differs from the one before it in the write
    /// (`SampleInserter`), and kept when the object is deleted. Device rows are shared by every
    /// source and never deleted, so an app that saved and deleted samples naming ever new devices
    /// would otherwise grow `devices` without bound; charging a device row's whole size wherever
    /// one could be made bounds that table by what its apps were charged. A row holds the text
    /// three times: its fields, its fingerprint (`SampleRepository.fingerprint`, the fields
    /// joined) and the fingerprint's UNIQUE index — before session 21 it was charged once. Not
    /// "once per new row": whether a save makes a row depends on what other apps saved, which an
    /// app at its bound could then read off its refusals (DESIGN.md §7.3); what a write is charged
    /// depends on its own records only. The other objects naming it pay `deviceReference`.
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
        // The row holds the fields and the fingerprint (the fields with 15 bytes of markers and
        // separators); the fingerprint's UNIQUE index holds it again with the row id.
        return deviceReference + paged(row: 2 * Int64(text) + deviceRowExtra, in: .table)
            + paged(row: Int64(text) + deviceIndexExtra, in: .unorderedIndex)
    }

    /// A device row's bytes beside its text twice: the fingerprint's markers, the record header.
    static let deviceRowExtra: Int64 = 40
    /// A fingerprint index entry's beside its text: the markers, the header and the row id.
    static let deviceIndexExtra: Int64 = 32

    /// Which kind of B-tree a row is in: SQLite keeps less of an index's (and a WITHOUT ROWID
    /// table's) row on its leaf page before moving the rest to overflow pages. Rows appended in
    /// key order (row ids, a workout's events) fill their leaves; keys in any order (a text's
    /// UNIQUE index) split them, leaving them as little as half full.
    enum Tree {
        case table
        case index
        case unorderedIndex
    }

    /// What a row of `row` payload bytes takes of the file, with its share of a leaf page and the
    /// whole overflow pages it has alone — SQLite's cell layout (btree.c) on the cipher's pages
    /// (4096 bytes, 28 reserved). Why not the bytes: a row just past what fits twice on a page
    /// takes a page of its own, and an overflow chain's last page is the row's alone, so an app
    /// choosing its texts' lengths stored up to twice what their bytes were charged.
    static func paged(row payload: Int64, in tree: Tree) -> Int64 {
        let maxLocal = tree == .table ? usablePage - 35 : (usablePage - 12) * 64 / 255 - 23
        let leafFill: Int64 = tree == .unorderedIndex ? 2 : 1
        let minLocal = (usablePage - 12) * 32 / 255 - 23
        var local = payload
        var overflowPages: Int64 = 0
        if payload > maxLocal {
            let surplus = minLocal + (payload - minLocal) % (usablePage - 4)
            local = surplus <= maxLocal ? surplus : minLocal
            overflowPages = (payload - local + usablePage - 5) / (usablePage - 4)
            local += 4  // the first overflow page's number
        }
        // The cell's header (payload size and row id) and its pointer; the leaf's header.
        let rowsPerLeaf = max(1, (usablePage - 8) / (local + 14) / leafFill)
        // The parent page's entry for each leaf, rounded up with the leaf's share.
        return (page + rowsPerLeaf - 1) / rowsPerLeaf + 16 + overflowPages * page
    }

    /// What a text of `bytes` adds to a row of `rest` other payload bytes, whose own charge counts
    /// those bytes: the row's pages with the text, less `rest`. (Not less the row's pages without
    /// it: `objectRow` is a measure, not this estimate, and the difference of two estimates can
    /// fall short of it by their rounding; this errs by at most a leaf's share of the rest.)
    static func paged(text bytes: Int64, besides rest: Int64, in tree: Tree) -> Int64 {
        guard bytes > 0 else { return 0 }
        return paged(row: rest + bytes, in: tree) - rest
    }

    static let page: Int64 = 4_096
    /// A page's bytes less the cipher's reserved nonce and tag (`CPageCipher`, RESERVED_BYTES).
    static let usablePage: Int64 = page - 28

    /// The same estimate for a row stored before v66 (no `charged` value), in SQL over `objects`
    /// aliased `o`: the row and its metadata text (side rows are not counted). The migration seeds
    /// each app's use with it and a deletion of such a row gives the same back.
    static let legacyObjectSQL = """
        (\(objectRow) + coalesce(length(CAST(o.metadata AS BLOB)), 0) \
        + 4 * coalesce(length(CAST(o.sync_identifier AS BLOB)), 0))
        """

    /// A metadata dictionary as stored, in a row of `rest` other bytes: its JSON text's length,
    /// escapes and punctuation included (`MetadataCoding.encodedLength`, the one measure of it),
    /// with the pages it makes the row take (`paged`). Objects', workout events' and activities'
    /// metadata alike.
    static func metadata(_ metadata: [String: MetadataValue], besides rest: Int64, in tree: Tree) -> Int64 {
        paged(text: Int64(MetadataCoding.encodedLength(metadata)), besides: rest, in: tree)
    }

    /// An `objects` row's payload without its texts (metadata, source version, sync identifier):
    /// its columns' values and record header, about 72 bytes with a 16-byte UUID; rounded up, so
    /// a row estimated to fit twice on a leaf page does.
    static let bareObjectPayload: Int64 = 96
    /// A `workout_events` row's, and a `workout_activities` row's, without metadata.
    static let eventPayload: Int64 = 32
    static let activityPayload: Int64 = 64

    /// The value's side rows.
    private static func value(_ value: SampleRecord.Value) -> Int64 {
        switch value {
        case .quantity, .category, .correlation:
            return 0
        case let .workout(workout):
            var bytes: Int64 = 64 + Int64(workout.associatedSampleUUIDs.count) * 32
            // WITHOUT ROWID tables: their rows are laid out as an index's.
            for event in workout.events { bytes += 48 + metadata(event.metadata, besides: eventPayload, in: .index) }
            for activity in workout.activities {
                bytes += 96 + metadata(activity.metadata, besides: activityPayload, in: .index) + Int64(activity.statistics.count) * 96
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
            return 32 + paged(text: Int64(document.data.count), besides: 16, in: .table)
        case let .clinicalRecord(record):
            return 32 + paged(text: Int64(record.data.count + record.displayName.utf8.count + record.resourceType.utf8.count
                + record.identifier.utf8.count + (record.sourceURL?.utf8.count ?? 0) + record.fhirVersion.utf8.count),
                besides: 24, in: .table)
        case let .visionPrescription(prescription):
            return 64 + Int64(prescription.brand?.utf8.count ?? 0) + (prescription.rightEye == nil ? 0 : 96)
                + (prescription.leftEye == nil ? 0 : 96)
        case let .medicationDoseEvent(event):
            // The concept is in the row and in `medication_dose_events_by_concept`.
            return 48 + Int64(2 * event.medicationConceptIdentifier.utf8.count + event.unit.utf8.count)
        case let .userAnnotatedMedication(medication):
            let codings = medication.relatedCodings.reduce(Int64(0)) { total, coding in
                total + 16 + Int64(coding.system.utf8.count + (coding.version?.utf8.count ?? 0) + coding.code.utf8.count)
            }
            // The concept is in the row and in its UNIQUE index.
            return 48 + Int64(2 * medication.conceptIdentifier.utf8.count + medication.displayText.utf8.count
                + medication.generalForm.utf8.count + (medication.nickname?.utf8.count ?? 0)) + codings
        }
    }
}
