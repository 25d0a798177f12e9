import Foundation

/// A file written through a 1 MiB buffer, so writing many small rows costs few system calls
/// and memory stays bounded.
final class BufferedFile {
    private let handle: FileHandle
    private let path: String
    private var buffer = Data()

    init(handle: FileHandle, path: String) {
        self.handle = handle
        self.path = path
    }

    func write(_ text: String) throws(HealthCtlError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func close() throws(HealthCtlError) {
        try flush()
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .exportFailed(path: path, reason: "cannot finish writing it (\(error.localizedDescription))")
        }
    }

    private func flush() throws(HealthCtlError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw .exportFailed(path: path, reason: "cannot write (\(error.localizedDescription))")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
