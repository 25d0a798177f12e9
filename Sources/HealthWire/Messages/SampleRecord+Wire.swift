import COpenHealthProto
import Foundation
import HealthModel

/// Reading `openhealth.v1.Sample` into a `SampleRecord` (building one: `SampleWireBuilder`).
enum SampleWire {
    /// Every sample of a message's repeated field, sharing the strings they repeat
    /// (`RecentWireStrings`): what a save, an import batch and a change batch carry.
    static func readAll(_ pointer: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__Sample>?>?,
                        count: Int) throws(WireDecodeError) -> [SampleRecord] {
        guard let pointer, count > 0 else { return [] }
        var strings = RecentWireStrings()
        var records: [SampleRecord] = []
        records.reserveCapacity(count)
        for message in UnsafeBufferPointer(start: pointer, count: count) {
            guard let message else { continue }  // as `WireRead.messages` skips a null entry
            records.append(try read(message.pointee, strings: &strings))
        }
        return records
    }

    static func read(_ wire: Openhealth__V1__Sample) throws(WireDecodeError) -> SampleRecord {
        var strings = RecentWireStrings()
        return try read(wire, strings: &strings)
    }

    static func read(_ wire: Openhealth__V1__Sample, strings: inout RecentWireStrings) throws(WireDecodeError) -> SampleRecord {
        // Read in place: an array of the 16 bytes per sample was one allocation of the save's
        // decode for an id the broker replaces anyway (it still must be well formed).
        var uuidBytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if wire.uuid.len > 0, let data = wire.uuid.data {
            guard wire.uuid.len == 16 else { throw .invalidField("sample uuid must be 16 bytes, not \(wire.uuid.len)") }
            withUnsafeMutableBytes(of: &uuidBytes) { $0.copyMemory(from: UnsafeRawBufferPointer(start: data, count: 16)) }
        }
        let uuid = UUID(uuid: uuidBytes)
        guard wire.n_correlation_objects == 0 || wire.value_case == OPENHEALTH__V1__SAMPLE__VALUE__NOT_SET else {
            throw .invalidField("a sample with a value cannot hold correlation objects")
        }
        let value: SampleRecord.Value
        switch wire.value_case {
        case OPENHEALTH__V1__SAMPLE__VALUE_QUANTITY:
            guard let quantity = wire.quantity?.pointee else { throw .invalidField("sample quantity missing") }
            value = .quantity(quantity.value, unit: strings.unit(quantity.unit))
        case OPENHEALTH__V1__SAMPLE__VALUE_CATEGORY_VALUE:
            guard let category = Int(exactly: wire.category_value) else { throw .invalidField("category value out of range") }
            value = .category(category)
        case OPENHEALTH__V1__SAMPLE__VALUE_WORKOUT:
            guard let workout = wire.workout?.pointee else { throw .invalidField("sample workout missing") }
            value = .workout(try WorkoutWire.read(workout))
        case OPENHEALTH__V1__SAMPLE__VALUE_ROUTE_LOCATION_COUNT:
            guard let count = Int(exactly: wire.route_location_count) else { throw .invalidField("route location count out of range") }
            value = .workoutRoute(locationCount: count)
        case OPENHEALTH__V1__SAMPLE__VALUE_HEARTBEAT_SERIES:
            guard let series = wire.heartbeat_series?.pointee else { throw .invalidField("sample heartbeat series missing") }
            value = .heartbeatSeries(try SeriesWire.read(series))
        case OPENHEALTH__V1__SAMPLE__VALUE_ELECTROCARDIOGRAM:
            guard let ecg = wire.electrocardiogram?.pointee else { throw .invalidField("sample electrocardiogram missing") }
            value = .electrocardiogram(try SeriesWire.read(ecg))
        case OPENHEALTH__V1__SAMPLE__VALUE_STATE_OF_MIND:
            guard let stateOfMind = wire.state_of_mind?.pointee else { throw .invalidField("sample state of mind missing") }
            value = .stateOfMind(try StateOfMindWire.read(stateOfMind))
        case OPENHEALTH__V1__SAMPLE__VALUE_SCORED_ASSESSMENT:
            guard let assessment = wire.scored_assessment?.pointee else { throw .invalidField("sample scored assessment missing") }
            value = .scoredAssessment(try ScoredAssessmentWire.read(assessment))
        case OPENHEALTH__V1__SAMPLE__VALUE_AUDIOGRAM:
            guard let audiogram = wire.audiogram?.pointee else { throw .invalidField("sample audiogram missing") }
            value = .audiogram(try AudiogramWire.read(audiogram))
        case OPENHEALTH__V1__SAMPLE__VALUE_DOCUMENT:
            guard let document = wire.document?.pointee else { throw .invalidField("sample document missing") }
            value = .document(try DocumentWire.read(document))
        case OPENHEALTH__V1__SAMPLE__VALUE_CLINICAL_RECORD:
            guard let record = wire.clinical_record?.pointee else { throw .invalidField("sample clinical record missing") }
            value = .clinicalRecord(try ClinicalRecordWire.read(record))
        case OPENHEALTH__V1__SAMPLE__VALUE_VISION_PRESCRIPTION:
            guard let prescription = wire.vision_prescription?.pointee else { throw .invalidField("sample vision prescription missing") }
            value = .visionPrescription(try VisionPrescriptionWire.read(prescription))
        case OPENHEALTH__V1__SAMPLE__VALUE_MEDICATION:
            guard let medication = wire.medication?.pointee else { throw .invalidField("sample medication missing") }
            value = try MedicationWire.read(medication)
        case OPENHEALTH__V1__SAMPLE__VALUE__NOT_SET where wire.n_correlation_objects > 0:
            // Recursion bounded by WireDepthGuard, like predicates.
            value = .correlation(try readAll(wire.correlation_objects, count: wire.n_correlation_objects))
        default:
            throw .invalidField("sample has no value")
        }
        let metadata = try MetadataWire.readAll(wire.metadata, count: wire.n_metadata, strings: &strings)
        var source: SourceRecord?
        if let revision = wire.source_revision?.pointee { source = try SourceRevisionWire.read(revision) }
        var quantitySeries: QuantitySeries?
        if let series = wire.quantity_series?.pointee {
            guard case .quantity = value else { throw .invalidField("only a quantity sample can hold a quantity series") }
            quantitySeries = try QuantitySeriesWire.read(series)
        }
        return SampleRecord(
            uuid: uuid, typeIdentifier: strings.type(wire.type),
            startDate: Date(microsecondsSince1970: wire.start_us), endDate: Date(microsecondsSince1970: wire.end_us),
            value: value, metadata: metadata, device: wire.device.map { DeviceWire.read($0.pointee) }, source: source,
            quantitySeries: quantitySeries)
    }
}

enum QuantityWire {
    static func build(_ value: Double, _ unit: String, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Quantity> {
        arena.message { (wire: inout Openhealth__V1__Quantity) in
            wire.value = value
            wire.unit = arena.string(unit)
        }
    }
}

enum MetadataWire {
    static func build(_ key: String, _ value: MetadataValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__MetadataEntry> {
        arena.message { (entry: inout Openhealth__V1__MetadataEntry) in
            entry.key = arena.string(key)
            entry.value = arena.message { (wire: inout Openhealth__V1__MetadataValue) in
                switch value {
                case let .string(string):
                    wire.value_case = OPENHEALTH__V1__METADATA_VALUE__VALUE_STRING_VALUE
                    wire.string_value = arena.string(string)
                case let .number(number):
                    wire.value_case = OPENHEALTH__V1__METADATA_VALUE__VALUE_NUMBER_VALUE
                    wire.number_value = number
                case let .date(date):
                    wire.value_case = OPENHEALTH__V1__METADATA_VALUE__VALUE_DATE_US
                    wire.date_us = date.microsecondsSince1970
                case let .quantity(number, unit):
                    wire.value_case = OPENHEALTH__V1__METADATA_VALUE__VALUE_QUANTITY_VALUE
                    wire.quantity_value = QuantityWire.build(number, unit, in: arena)
                case let .bool(bool):
                    wire.value_case = OPENHEALTH__V1__METADATA_VALUE__VALUE_BOOL_VALUE
                    wire.bool_value = bool ? 1 : 0
                }
            }
        }
    }

    /// `entry`'s value; `key`, its key as read, names it in errors.
    static func read(_ entry: Openhealth__V1__MetadataEntry, key: String) throws(WireDecodeError) -> MetadataValue {
        guard let wire = entry.value?.pointee else { throw .invalidField("metadata key \(key.prefix(100)) has no value") }
        switch wire.value_case {
        case OPENHEALTH__V1__METADATA_VALUE__VALUE_STRING_VALUE: return .string(WireRead.string(wire.string_value))
        case OPENHEALTH__V1__METADATA_VALUE__VALUE_NUMBER_VALUE: return .number(wire.number_value)
        case OPENHEALTH__V1__METADATA_VALUE__VALUE_DATE_US: return .date(Date(microsecondsSince1970: wire.date_us))
        case OPENHEALTH__V1__METADATA_VALUE__VALUE_BOOL_VALUE: return .bool(wire.bool_value != 0)
        case OPENHEALTH__V1__METADATA_VALUE__VALUE_QUANTITY_VALUE:
            guard let quantity = wire.quantity_value?.pointee else { throw .invalidField("metadata quantity missing") }
            return .quantity(value: quantity.value, unit: WireRead.string(quantity.unit))
        default:
            throw .invalidField("metadata key \(key.prefix(100)) has no value")
        }
    }
}

enum DeviceWire {
    static func build(_ device: DeviceRecord, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Device> {
        arena.message { (wire: inout Openhealth__V1__Device) in
            wire.name = arena.string(device.name ?? "")
            wire.manufacturer = arena.string(device.manufacturer ?? "")
            wire.model = arena.string(device.model ?? "")
            wire.hardware_version = arena.string(device.hardwareVersion ?? "")
            wire.firmware_version = arena.string(device.firmwareVersion ?? "")
            wire.software_version = arena.string(device.softwareVersion ?? "")
            wire.local_identifier = arena.string(device.localIdentifier ?? "")
            wire.udi_device_identifier = arena.string(device.udiDeviceIdentifier ?? "")
        }
    }

    static func read(_ wire: Openhealth__V1__Device) -> DeviceRecord {
        func optional(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            let value = WireRead.string(pointer)
            return value.isEmpty ? nil : value
        }
        return DeviceRecord(
            name: optional(wire.name), manufacturer: optional(wire.manufacturer), model: optional(wire.model),
            hardwareVersion: optional(wire.hardware_version), firmwareVersion: optional(wire.firmware_version),
            softwareVersion: optional(wire.software_version), localIdentifier: optional(wire.local_identifier),
            udiDeviceIdentifier: optional(wire.udi_device_identifier))
    }
}
