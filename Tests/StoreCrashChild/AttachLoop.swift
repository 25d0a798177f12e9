import Foundation
import HealthModel
import HealthStore

/// `store-crash-child attach <directory>`: adds attachments to fresh vision prescriptions in a
/// loop — a prescription saved, an upload begun, four 256 KiB chunks appended, the upload
/// finished — announcing each step once the store acknowledged it, until killed
/// (AttachmentCrashTests). Every byte of attachment N is `N % 251`, so a reader can tell whole
/// data from mixed or partial data.
func attachForever(directory: String) throws {
    let store = try EncryptedDatabase.open(directory: directory)
    let database = try HealthDatabase(writer: store.writer)
    let source = SourceRecord(bundleIdentifier: "org.example.attacher", name: "Attacher", version: "1")
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let chunk = AttachmentLimits.chunkBytes
    for round in 0..<200 {
        let prescription = SampleRecord(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: date, endDate: date,
                                        value: .visionPrescription(VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: nil)))
        let objectUUID = try blockingCommit { try await database.samples.insert([prescription], source: source)[0] }
        announce("object \(objectUUID.uuidString)")
        let start = AttachmentRepository.UploadStart(objectUUID: objectUUID, typeIdentifier: HKVisionPrescriptionTypeIdentifier,
                                                     name: "scan-\(round).png", contentType: "public.png", size: 4 * chunk, metadata: [:])
        let upload = try blockingCommit {
            try await database.attachments.beginUpload(start, appID: source.bundleIdentifier, scope: .allSources, now: Date())
        }
        for index in 0..<4 {
            let bytes = [UInt8](repeating: UInt8(round % 251), count: chunk)
            try blockingCommit {
                try await database.attachments.append(uploadID: upload, appID: source.bundleIdentifier, scope: .allSources,
                                                      offset: index * chunk, data: bytes, now: Date())
            }
            announce("chunk \(round) \(index)")
        }
        let record = try blockingCommit {
            try await database.attachments.finish(uploadID: upload, appID: source.bundleIdentifier, scope: .allSources, now: Date())
        }
        announce("finished \(round) \(record.identifier.uuidString)")
    }
    while true { sleep(1) }
}

/// Runs `work` to completion from this synchronous loop.
func blockingCommit<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, any Error>?
    Task {
        do { result = .success(try await work()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    guard let result else { throw CancellationError() }
    return try result.get()
}
