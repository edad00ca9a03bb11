package dev.threadbench.common;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A number (or null) by its field name in the flat JSON /stats writes; enough for these tests. */
final class JsonFields {

    private JsonFields() {}

    /** The field's value, null if it is JSON null; fails if the field is missing. */
    static Long number(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\":(null|-?\\d+)[,}]")
                .matcher(json);
        if (!matcher.find()) {
            throw new AssertionError("no number field " + name + " in " + json);
        }
        return matcher.group(1).equals("null") ? null : Long.valueOf(matcher.group(1));
    }
}
