import Foundation
public import HealthModel

/// The damaged pending journals kept in a store folder, and the note beside each that says what
/// its merge lost (`<journal>.damaged.lost`, plain text: entry numbers and byte offsets only,
/// never entry contents — they are sealed and their key is gone with the merge).
///
/// Why a note on disk: the merge's report reaches `healthctl unlock` and healthd's log once; a
/// merge at a start-up (nobody asked) or a log rotated since would leave the user with a file
/// and no word of what it means. The folder is the record, so a restart keeps it and removing
/// the files is all it takes to stop showing them.
public enum DamagedPendingJournals {
    static let suffix = ".damaged"
    static let noteSuffix = ".lost"
    /// A note is read up to this many bytes (eight problems and a count are far fewer).
    static let maxNoteBytes = 4096

    static func notePath(kept: String) -> String { kept + noteSuffix }

    /// Writes the note for `kept` before the journal is renamed to it: a kill between the two
    /// leaves the journal unrenamed, and the next merge writes both again.
    static func writeNote(kept: String, lost: String) throws(SystemCallError) {
        try StoreFileIO.writeAtomically(notePath(kept: kept), contents: Array(lost.utf8.prefix(maxNoteBytes)))
    }

    /// Every `pending-N.journal.damaged` in `directory`, oldest generation first, with its note.
    /// A folder that cannot be read lists nothing (status must not fail over it).
    public static func list(directory: String) -> [DamagedPendingJournal] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let kept = names.compactMap { name -> (generation: Int64, name: String)? in
            guard name.hasPrefix("pending-"), name.hasSuffix(".journal" + suffix),
                  let generation = Int64(name.dropFirst("pending-".count).dropLast((".journal" + suffix).count)) else { return nil }
            return (generation, name)
        }
        return kept.sorted { $0.generation < $1.generation }.prefix(DamagedPendingJournal.maxListed).compactMap { entry in
            let path = directory + "/" + entry.name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            let note = readNote(notePath(kept: path))
            return DamagedPendingJournal(path: path, bytes: Int(info.st_size),
                                         kept: note.time ?? Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)),
                                         lost: note.text)
        }
    }

    /// The note's text (at most `maxNoteBytes`, a regular file only) and its time.
    private static func readNote(_ path: String) -> (text: String, time: Date?) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return ("", nil) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return ("", nil) }
        var buffer = [UInt8](repeating: 0, count: maxNoteBytes)
        let count = read(fd, &buffer, maxNoteBytes)
        guard count > 0 else { return ("", nil) }
        return (String(decoding: buffer[..<count], as: UTF8.self), Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)))
    }
}
