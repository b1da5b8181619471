import Compositor

/// SF Symbols by name, drawn from an open icon font: Apple's symbols cannot be shipped, so each common name maps to
/// the closest icon of Material Design Icons DX (Debian's `fonts-material-design-icons-iconfont`; the icons
/// © 2014–2020 Material Design Authors, the font © 2019–2022 Jossef Harush, both Apache License 2.0), drawn
/// through the text stack as the font's ligature for the icon's name ("close" shapes to ✕), so a symbol is sharp
/// at any size and transform, as a label is. The font has one weight; the others are its outline grown or thinned
/// (`outlineGrowth(for:)`).
public enum SymbolCatalog {
    /// The icon font's family, as fontconfig knows it.
    public static let family = "Material Icons"

    /// SF Symbol name → Material icon name. The ".fill" variants map to the filled icon, the plain names to the
    /// outlined one where Material has both.
    public static let icons: [String: String] = [
        "xmark": "close", "xmark.circle": "highlight_off", "xmark.circle.fill": "cancel",
        "checkmark": "check", "checkmark.circle": "check_circle_outline", "checkmark.circle.fill": "check_circle",
        "plus": "add", "plus.circle": "add_circle_outline", "plus.circle.fill": "add_circle", "minus": "remove",
        "chevron.left": "chevron_left", "chevron.right": "chevron_right", "chevron.up": "expand_less",
        "chevron.down": "expand_more", "arrow.left": "arrow_back", "arrow.right": "arrow_forward",
        "arrow.up": "arrow_upward", "arrow.down": "arrow_downward", "arrow.clockwise": "refresh",
        "star": "star_border", "star.fill": "star", "star.leadinghalf.filled": "star_half",
        "heart": "favorite_border", "heart.fill": "favorite", "bookmark": "bookmark_border",
        "bookmark.fill": "bookmark", "hand.thumbsup": "thumb_up_off_alt", "hand.thumbsup.fill": "thumb_up",
        "hand.thumbsdown": "thumb_down_off_alt", "hand.thumbsdown.fill": "thumb_down",
        "face.smiling": "sentiment_satisfied_alt", "magnifyingglass": "search", "gearshape": "settings",
        "gear": "settings", "house": "home", "house.fill": "home", "person": "person_outline", "person.fill": "person",
        "person.crop.circle": "account_circle", "trash": "delete_outline", "trash.fill": "delete",
        "square.and.arrow.up": "ios_share", "square.and.pencil": "edit", "pencil": "edit", "ellipsis": "more_horiz",
        "info.circle": "info_outline", "exclamationmark.triangle": "warning_amber", "bell": "notifications_none",
        "bell.fill": "notifications", "calendar": "calendar_today", "clock": "schedule", "map": "map",
        "location": "near_me", "mappin": "place", "phone": "phone", "phone.fill": "phone", "envelope": "mail_outline",
        "envelope.fill": "mail", "camera": "photo_camera", "photo": "image", "airplane": "flight",
        "cart": "shopping_cart",
        "play.fill": "play_arrow", "pause.fill": "pause", "stop.fill": "stop", "forward.fill": "fast_forward",
        "backward.fill": "fast_rewind", "speaker.wave.2.fill": "volume_up", "wifi": "wifi", "lock": "lock_outline",
        "lock.fill": "lock", "cloud": "cloud_queue", "cloud.snow": "ac_unit", "sun.max": "wb_sunny",
        "fork.knife": "restaurant", "cup.and.saucer": "local_cafe", "takeoutbag.and.cup.and.straw": "fastfood",
        "line.3.horizontal": "menu", "slider.horizontal.3": "tune", "list.bullet": "format_list_bulleted",
        "square.grid.2x2": "grid_view", "globe": "public", "link": "link", "paperplane": "send",
    ]

    /// The FoodPin seed's rating icons (its asset names, `UIImage(named: rating.image)`) as Material's faces.
    public static let ratingFaces: [String: String] = [
        "love": "sentiment_very_satisfied", "cool": "sentiment_satisfied_alt", "happy": "sentiment_satisfied",
        "sad": "sentiment_dissatisfied", "angry": "sentiment_very_dissatisfied",
    ]

    /// The icon font's ligature for an SF Symbol or rating icon name; nil for a name not in the catalogue.
    public static func iconName(for name: String) -> String? { icons[name] ?? ratingFaces[name] }

    /// The catalogue's names closest to `name`, for the message refusing it.
    public static func closestNames(to name: String) -> [String] {
        name.closest(in: Array(icons.keys) + Array(ratingFaces.keys))
    }
}
