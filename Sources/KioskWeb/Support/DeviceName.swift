/// A device's name for people, from its browser's User-Agent: what "Paused at 23:10 on iPhone"
/// says. The header is the client's word, so only names from this list come out of it.
enum DeviceName {
    static func from(userAgent: String?) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return "another device" }
        let system: String? =
            if agent.contains("iPhone") || agent.contains("iPod") {
                "iPhone"
            } else if agent.contains("iPad") {
                "iPad"
            } else if agent.contains("Android") {
                agent.contains("Mobile") ? "Android phone" : "Android tablet"
            } else if agent.contains("CrOS") {
                "Chromebook"
            } else if agent.contains("Macintosh") || agent.contains("Mac OS X") {
                "Mac"
            } else if agent.contains("Windows") {
                "Windows"
            } else if agent.contains("Linux") || agent.contains("X11") {
                "Linux"
            } else {
                nil
            }
        // Phones and tablets are named by themselves, as their owners call them.
        if let system, ["iPhone", "iPad", "Android phone", "Android tablet"].contains(system) { return system }
        let browser: String? =
            if agent.contains("Edg/") {
                "Edge"
            } else if agent.contains("Firefox/") {
                "Firefox"
            } else if agent.contains("Chrome/") || agent.contains("Chromium/") {
                "Chrome"
            } else if agent.contains("Safari/") {
                "Safari"
            } else {
                nil
            }
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (nil, let system?): return system
        case (let browser?, nil): return browser
        case (nil, nil): return "another device"
        }
    }
}
