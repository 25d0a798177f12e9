import Foundation
import HealthKit
import UniformTypeIdentifiers

// Snippets for HKAttachmentStore (iOS 16+), written as Apple's pages show them (see
// AppleSnippets.swift). Only the `print` lines and the files they attach are the test's: the
// app writes each file into its own private /tmp first (a confined app can write nowhere else).

func runAttachmentSnippet(_ name: String, _ arguments: [String], _ store: HKHealthStore) async throws {
    switch name {
    case "round-trip": try await attachmentRoundTripSnippet(store, size: arguments.first.flatMap(Int.init) ?? 1000)
    case "refusals": try await attachmentRefusalsSnippet(store)
    case "visible": try await visibleAttachmentsSnippet(store)
    case "remove-all": try await removeAllAttachmentsSnippet(store)
    case "attach-existing": try await attachToExistingSnippet(store)
    default: usage("attachment-snippet round-trip [SIZE] | refusals | visible | remove-all | attach-existing")
    }
}

/// The bytes of a test file: a pattern that shows any byte out of place.
func attachmentBytes(_ size: Int) -> Data {
    Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) })
}

func writeAttachmentFile(_ name: String, size: Int) throws -> URL {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name)
    try attachmentBytes(size).write(to: url)
    return url
}

/// developer.apple.com/documentation/healthkit/hkvisionprescription ("Create a minimal
/// prescription sample that just holds an image attachment"), …/hkattachmentstore/addattachment(to:name:contenttype:url:metadata:),
/// …/hkattachment (attachments(for:) and a data reader per attachment), …/hkattachmentdatareader
/// (`data`, then `bytes`), …/hkattachmentstore/getdata(for:completion:) and
/// …/hkattachmentstore/streamdata(for:datahandler:). Prints "object UUID" and "attachment ID",
/// then: how many attachments, the size, whether each of the four reads gave the file's exact
/// bytes, how many chunks streamData delivered and whether only the last said done, and the
/// attachment's name, content type and metadata.
func attachmentRoundTripSnippet(_ store: HKHealthStore, size: Int) async throws {
    // Create a minimal prescription sample that just holds an image attachment.
    let prescription = HKVisionPrescription(type: .glasses,
                                            dateIssued: Date(),
                                            expirationDate: nil,
                                            device: nil,
                                            metadata: nil)
    try await store.save(prescription)
    let url = try writeAttachmentFile("prescription.pdf", size: size)

    let attachmentStore = HKAttachmentStore(healthStore: store)
    let attachment = try await attachmentStore.addAttachment(to: prescription,
                                                             name: "My prescription",
                                                             contentType: .pdf,
                                                             url: url,
                                                             metadata: ["page": 1])
    print("object \(prescription.uuid.uuidString)")
    print("attachment \(attachment.identifier.uuidString)")
    let expected = attachmentBytes(size)

    let attachments: [HKAttachment]
    do {
        attachments = try await attachmentStore.attachments(for: prescription)
    } catch {
        // Handle the error here.
        usage("*** An error occurred while accessing the attachments for a prescription: \(error.localizedDescription) ***")
    }
    guard let first = attachments.first else { usage("no attachment listed") }

    // Get a data reader for the attachment.
    let dataReader = attachmentStore.dataReader(for: first)
    let data: Data
    do {
        data = try await dataReader.data
    } catch {
        usage("*** An error occurred while accessing the attachment's data. \(error.localizedDescription) ***")
    }

    // Asynchronously access the attachment's bytes.
    var byteData = Data()
    do {
        for try await byte in dataReader.bytes {
            // Use the bytes here.
            byteData.append(byte)
        }
    } catch {
        usage("*** An error occurred while reading the attachment's data: \(error.localizedDescription) ***")
    }

    let completed: Data? = await withCheckedContinuation { continuation in
        attachmentStore.getData(for: first) { data, error in continuation.resume(returning: error == nil ? data : nil) }
    }
    let streamed = StreamedChunks()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        attachmentStore.streamData(for: first) { chunk, error, done in
            streamed.add(chunk, error: error, done: done)
            if done { continuation.resume() }
        }
    }
    let (streamedData, chunks, doneOnlyLast) = streamed.result
    print("ok \(attachments.count) \(first.size) \(data == expected) \(byteData == expected) \(completed == expected)"
          + " \(streamedData == expected) \(chunks) \(doneOnlyLast) \(first.name.replacingOccurrences(of: " ", with: "_"))"
          + " \(first.contentType.identifier) \(first.metadata?["page"].map { "\($0)" } ?? "none") \(first == attachment)")
}

/// What streamData delivered, gathered from its handler.
final class StreamedChunks: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var chunks = 0
    private var dones: [Bool] = []
    private var failed = false

    func add(_ chunk: Data?, error: (any Error)?, done: Bool) {
        lock.withLock {
            if error != nil { failed = true }
            data.append(chunk ?? Data())
            chunks += 1
            dones.append(done)
        }
    }

    var result: (Data?, Int, Bool) {
        lock.withLock { (failed ? nil : data, chunks, dones.last == true && dones.dropLast().allSatisfy { !$0 }) }
    }
}

/// The refusals, one input varied at a time against the same saved prescription: a name with a
/// NUL, an empty name, a name with "/", a file one byte over 16 MiB, a directory, a file that does
/// not exist, an unreadable file, a non-file URL, and a step sample (attachments go on
/// prescriptions). Then the extremes that succeed: a 0-byte file and one of exactly 16 MiB.
/// Prints "label:code" for each refusal, then the two sizes read back and whether they match.
func attachmentRefusalsSnippet(_ store: HKHealthStore) async throws {
    let prescription = HKVisionPrescription(type: .contacts, dateIssued: Date(), expirationDate: nil, device: nil, metadata: nil)
    try await store.save(prescription)
    let attachmentStore = HKAttachmentStore(healthStore: store)
    let small = try writeAttachmentFile("small.png", size: 10)
    let over = try writeAttachmentFile("over.png", size: 16 * 1024 * 1024 + 1)
    let directory = URL(fileURLWithPath: NSTemporaryDirectory())
    let unreadable = try writeAttachmentFile("unreadable.png", size: 10)
    chmod(unreadable.path, 0)
    let steps = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                 start: Date(), end: Date())
    let cases: [(String, HKObject, String, URL)] = [
        ("nul", prescription, "scan\u{0}.png", small),
        ("empty", prescription, "", small),
        ("slash", prescription, "a/b.png", small),
        ("over", prescription, "over.png", over),
        ("directory", prescription, "dir.png", directory),
        ("missing", prescription, "missing.png", directory.appendingPathComponent("no-such-file.png")),
        ("unreadable", prescription, "unreadable.png", unreadable),
        ("remote", prescription, "remote.png", URL(string: "https://example.com/scan.png") ?? small),
        ("steps", steps, "steps.png", small),
    ]
    var printed: [String] = []
    for (label, object, name, url) in cases {
        do {
            _ = try await attachmentStore.addAttachment(to: object, name: name, contentType: .png, url: url)
            printed.append("\(label):accepted")
        } catch let error as HKError {
            let reason = error.message.contains("directory") ? "directory" : error.message.contains("does not exist") ? "missing"
                : error.message.contains("permission denied") ? "denied" : error.message.contains("16 MiB") ? "limit" : ""
            printed.append("\(label):\(error.code.rawValue)\(reason.isEmpty ? "" : "/" + reason)")
        }
    }
    try FileManager.default.removeItem(at: over)
    let zero = try await attachmentStore.addAttachment(to: prescription, name: "empty.png", contentType: .png,
                                                       url: try writeAttachmentFile("zero.png", size: 0))
    let limit = try await attachmentStore.addAttachment(to: prescription, name: "limit.png", contentType: .png,
                                                        url: try writeAttachmentFile("limit.png", size: 16 * 1024 * 1024))
    let zeroData = try await attachmentStore.dataReader(for: zero).data
    let limitData = try await attachmentStore.dataReader(for: limit).data
    let listed = try await attachmentStore.attachments(for: prescription)
    print("ok \(printed.joined(separator: " ")) zero:\(zeroData.count) limit:\(limitData.count == 16 * 1024 * 1024 && limitData == attachmentBytes(limitData.count))"
          + " listed:\(listed.count)")
}

/// The prescriptions the app can read and their attachments' sizes: "COUNT size,size;…" (one
/// group per prescription, oldest first). Then reads each attachment and prints whether all read.
func visibleAttachmentsSnippet(_ store: HKHealthStore) async throws {
    let descriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: [SortDescriptor(\.startDate)])
    let prescriptions = try await descriptor.result(for: store)
    let attachmentStore = HKAttachmentStore(healthStore: store)
    var groups: [String] = []
    var readAll = true
    for prescription in prescriptions {
        let attachments = try await attachmentStore.attachments(for: prescription)
        groups.append(attachments.map { "\($0.size)" }.joined(separator: ","))
        for attachment in attachments where try await attachmentStore.dataReader(for: attachment).data.count != attachment.size {
            readAll = false
        }
    }
    print("ok \(prescriptions.count) \(groups.joined(separator: ";")) \(readAll)")
}

/// Removes every attachment of every prescription the app can read, as
/// …/hkattachmentstore/removeattachment(_:from:completion:) shows; prints "removed:N failed:CODE,…".
func removeAllAttachmentsSnippet(_ store: HKHealthStore) async throws {
    let descriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: [])
    let attachmentStore = HKAttachmentStore(healthStore: store)
    var removed = 0
    var failed: [String] = []
    for prescription in try await descriptor.result(for: store) {
        for attachment in try await attachmentStore.attachments(for: prescription) {
            let (success, error): (Bool, (any Error)?) = await withCheckedContinuation { continuation in
                attachmentStore.removeAttachment(attachment, from: prescription) { success, error in
                    continuation.resume(returning: (success, error))
                }
            }
            if success { removed += 1 } else { failed.append("\((error as? HKError)?.code.rawValue ?? -1)") }
        }
    }
    print("ok removed:\(removed) failed:\(failed.joined(separator: ","))")
}

/// Attaches a 10-byte file to every prescription the app can read (nothing is saved first, so a
/// refusal is the attachment's own); prints "attached:N failed:CODE,…".
func attachToExistingSnippet(_ store: HKHealthStore) async throws {
    let descriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: [])
    let attachmentStore = HKAttachmentStore(healthStore: store)
    let url = try writeAttachmentFile("existing.png", size: 10)
    var attached = 0
    var failed: [String] = []
    for prescription in try await descriptor.result(for: store) {
        do {
            _ = try await attachmentStore.addAttachment(to: prescription, name: "existing.png", contentType: .png, url: url)
            attached += 1
        } catch let error as HKError {
            failed.append("\(error.code.rawValue)")
        }
    }
    print("ok attached:\(attached) failed:\(failed.joined(separator: ","))")
}
