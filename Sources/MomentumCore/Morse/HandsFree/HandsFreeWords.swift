/// What a hands-free session draws from: common short words of each language (only letters Morse
/// sends without umlauts) and the Q codes of everyday contacts with what they mean.
enum HandsFreeWords {
    static func words(in language: Language) -> [String] {
        switch language {
        case .english: english
        case .german: german
        }
    }

    /// Frequent English words of two to six letters.
    static let english = [
        "THE", "AND", "FOR", "ARE", "BUT", "NOT", "YOU", "ALL", "ANY", "CAN", "HAD", "HER", "WAS", "ONE", "OUR",
        "OUT", "DAY", "GET", "HAS", "HIM", "HIS", "HOW", "MAN", "NEW", "NOW", "OLD", "SEE", "TWO", "WAY", "WHO",
        "BOY", "DID", "ITS", "LET", "PUT", "SAY", "SHE", "TOO", "USE", "THAT", "WITH", "HAVE", "THIS", "WILL",
        "YOUR", "FROM", "THEY", "KNOW", "WANT", "BEEN", "GOOD", "MUCH", "SOME", "TIME", "VERY", "WHEN", "COME",
        "HERE", "JUST", "LIKE", "LONG", "MAKE", "MANY", "MORE", "ONLY", "OVER", "SUCH", "TAKE", "THAN", "THEM",
        "WELL", "WERE", "WORK", "YEAR", "BACK", "CALL", "HAND", "HIGH", "KEEP", "LAST", "LIFE", "MOST", "NAME",
        "NEXT", "OPEN", "PART", "PLAY", "READ", "ROOM", "SIDE", "TELL", "TURN", "WORD", "ABOUT", "AFTER",
        "AGAIN", "BELOW", "COULD", "EVERY", "FIRST", "FOUND", "GREAT", "HOUSE", "LARGE", "LEARN", "NEVER",
        "OTHER", "PLACE", "PLANT", "POINT", "RIGHT", "SMALL", "SOUND", "SPELL", "STILL", "STUDY", "THEIR",
        "THERE", "THESE", "THING", "THINK", "THREE", "WATER", "WHERE", "WHICH", "WORLD", "WOULD", "WRITE",
        "ANSWER", "ALWAYS", "BEFORE", "CHANGE", "FRIEND", "LETTER", "LISTEN", "MOTHER", "NUMBER", "PEOPLE",
        "RADIO", "SIGNAL", "ANTENNA", "WEATHER",
    ]

    /// Frequent German words of two to six letters, without umlauts or ß.
    static let german = [
        "DER", "DIE", "DAS", "UND", "IST", "NICHT", "EIN", "EINE", "ICH", "SIE", "ES", "MIT", "AUF", "DIR",
        "DEN", "VON", "ZU", "WIR", "IHR", "WIE", "WAS", "WER", "WO", "JA", "NEIN", "AUCH", "ABER", "ODER",
        "NOCH", "NUR", "SCHON", "HIER", "DORT", "HEUTE", "MORGEN", "ABEND", "NACHT", "TAG", "JAHR", "ZEIT",
        "HAUS", "STADT", "LAND", "WEG", "BAUM", "WALD", "BERG", "SEE", "MEER", "WIND", "REGEN", "SCHNEE",
        "SONNE", "MOND", "STERN", "WASSER", "BROT", "MILCH", "KAFFEE", "TEE", "BUCH", "BRIEF", "WORT", "NAME",
        "FREUND", "KIND", "MANN", "FRAU", "VATER", "MUTTER", "HAND", "KOPF", "AUGE", "HERZ", "GUT", "NEU",
        "ALT", "GROSS", "KLEIN", "LANG", "KURZ", "WARM", "KALT", "HOCH", "TIEF", "SCHNELL", "LEISE", "LAUT",
        "GEHEN", "KOMMEN", "SEHEN", "HALLO", "SAGEN", "GEBEN", "NEHMEN", "LESEN", "FUNK", "WETTER", "ANTENNE",
        "SENDER", "DANKE", "BITTE",
    ]

    struct QCode: Sendable {
        let code: String
        let english: String
        let german: String

        func meaning(in language: Language) -> String {
            switch language {
            case .english: english
            case .german: german
            }
        }
    }

    static let qCodes: [QCode] = [
        QCode(code: "QRL", english: "is the frequency busy", german: "ist die Frequenz belegt"),
        QCode(code: "QRM", english: "interference from other stations", german: "Störung durch andere Stationen"),
        QCode(code: "QRN", english: "atmospheric noise", german: "atmosphärische Störungen"),
        QCode(code: "QRO", english: "increase power", german: "Leistung erhöhen"),
        QCode(code: "QRP", english: "low power", german: "kleine Leistung"),
        QCode(code: "QRQ", english: "send faster", german: "schneller geben"),
        QCode(code: "QRS", english: "send slower", german: "langsamer geben"),
        QCode(code: "QRT", english: "stop sending", german: "Sendeschluss"),
        QCode(code: "QRU", english: "nothing more for you", german: "nichts mehr für dich"),
        QCode(code: "QRV", english: "ready", german: "bereit"),
        QCode(code: "QRX", english: "wait", german: "warten"),
        QCode(code: "QRZ", english: "who is calling me", german: "wer ruft mich"),
        QCode(code: "QSB", english: "fading", german: "Schwund"),
        QCode(code: "QSL", english: "confirmed", german: "bestätigt"),
        QCode(code: "QSO", english: "a contact", german: "eine Verbindung"),
        QCode(code: "QSY", english: "change frequency", german: "Frequenz wechseln"),
        QCode(code: "QTH", english: "location", german: "Standort"),
        QCode(code: "QRG", english: "exact frequency", german: "genaue Frequenz"),
    ]
}
