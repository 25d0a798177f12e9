import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport

/// A store where every string an app chooses is hostile (`HealthCtlHostileTextEndToEndTests`).
/// Where a validator refuses the fully hostile string for a field, the next candidate keeps
/// the bidi characters only, then only the marker: refusing is safe too, and the world then
/// holds the most hostile string that field accepts.
struct HostileWorld: Sendable {
    let appID: String
    let glasses: UUID
    let types: [String]
    /// Why a candidate string was refused, field by field (the world holds the next one).
    let refusals: [String]

    static func build(on broker: BrokerProcess, hostile: String, appID: String) async throws -> HostileWorld {
        let candidates = [hostile, "HOSTILE\u{202E}\u{2066}evil\u{2069}", "HOSTILE"]
        let steps = HKQuantityTypeIdentifier.stepCount.rawValue
        let types = [steps, HKWorkoutTypeIdentifier, HKVisionPrescriptionTypeIdentifier]
        // The manifest ships with the app: its display name and usage descriptions are the app's words.
        var installed = false
        for name in candidates where !installed {
            let manifest: [String: Any] = ["id": appID, "displayName": name, "executable": Products.testProcessExecutable, "version": name,
                                           "NSHealthShareUsageDescription": name, "NSHealthUpdateUsageDescription": name]
            let path = broker.root + "/hostile-\(UUID().uuidString).json"
            try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
            installed = try await broker.healthctl(["apps", "install", path]).status == 0
        }
        try await broker.allowDirect(appID)
        for type in types {
            try await broker.set(appID, "share", type, allowed: true)
            // Vision prescriptions are read per object: the app needs no read grant to attach to its own.
            if type != HKVisionPrescriptionTypeIdentifier { try await broker.set(appID, "read", type, allowed: true) }
        }
        let app = RawApp(client: try RPCClient.connect(path: broker.appSocket))
        defer { app.close() }
        let start = Date(timeIntervalSince1970: 1_700_000_000)

        for text in candidates {
            let device = DeviceRecord(name: text, manufacturer: text, model: text, hardwareVersion: text, firmwareVersion: text,
                                      softwareVersion: text, localIdentifier: text, udiDeviceIdentifier: text)
            let sample = SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(60),
                                      value: .quantity(10, unit: "count"), metadata: ["org.test.\(text)": .string(text)], device: device)
            if await app.saveRefusal([sample]) == nil { break }
        }
        for text in candidates {
            let event = WorkoutEventRecord(type: HKWorkoutEventType.marker.rawValue, startDate: start.addingTimeInterval(10),
                                           endDate: start.addingTimeInterval(10), metadata: ["org.test.event": .string(text)])
            let workout = WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 600, events: [event])
            let record = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start,
                                      endDate: start.addingTimeInterval(600), value: .workout(workout), metadata: ["org.test.w": .string(text)])
            if await app.saveRefusal([record]) == nil { break }
        }
        guard let glasses = try await app.save([SampleRecord(
            uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: start, endDate: start,
            value: .visionPrescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: true, expirationDate: nil,
                                                               rightEye: LensSpecificationValue(sphere: -2))))]).first
        else { throw CocoaError(.coderValueNotFound) }
        let object = AttachmentObjectRef(uuid: glasses, typeIdentifier: HKVisionPrescriptionTypeIdentifier)
        var refusals: [String] = []
        for text in candidates {
            let data = Array("%PDF".utf8)
            let start = AttachmentUploadStart(object: object, name: text, contentType: "com.adobe.pdf", size: data.count,
                                              metadata: ["org.test.a": .string(text)])
            let begun: AttachmentUploadID
            do {
                begun = try AttachmentUploadID(wire: await app.client.unary(HealthStoreMethod.beginAttachment.rawValue, start.wireBytes()))
            } catch {
                refusals.append("attachment \(text.prefix(12)): \(error)")
                continue
            }
            _ = try await app.client.unary(HealthStoreMethod.appendAttachmentData.rawValue,
                                           AttachmentUploadChunk(uploadID: begun.id, offset: 0, data: data).wireBytes())
            _ = try await app.client.unary(HealthStoreMethod.finishAttachment.rawValue, begun.wireBytes())
            break
        }
        // The user's own medication, named behind a bidi override (healthctl refuses controls there).
        _ = try await broker.healthctl(["medications", "add", "\u{202E}HOSTILE\u{2066}evil\u{2069}"])
        return HostileWorld(appID: appID, glasses: glasses, types: types, refusals: refusals)
    }
}

