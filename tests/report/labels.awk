# Reads a report page; prints one line per problem of the Gantt labels
# (docs/report.md, "Labels"), then "bars N keys M rows R cut C alone A out O".
/^<tr id="job-[0-9]+">/ { k = $0; sub(/^<tr id="job-/, "", k); sub(/".*/, "", k); row[k] = 1; rows++ }
/^<a href="#job-[0-9]+">/ {
    k = $0; sub(/^<a href="#job-/, "", k); sub(/".*/, "", k)
    inbar = 1; text = ""; cls = ""
    if ($0 ~ /class="bar"/) { bars++; if (!(k in bar)) keys++; bar[k]++ }
    next
}
inbar && /^<text / {
    cls = $0; sub(/.* class="/, "", cls); sub(/".*/, "", cls)
    text = $0; sub(/^<text[^>]*>/, "", text); sub(/<\/text>$/, "", text)
}
inbar && /^<\/a>$/ {
    inbar = 0
    if (text == "") { print "job " k ": a bar without a label"; next }
    if (cls == "bk") out++
    if (text ~ /^[0-9]+$/) { alone++; if (text != k) print "job " k ": key " text }
    else if (text ~ /^[0-9]+ .*…$/) { cut++; t = text; sub(/ .*/, "", t); if (t != k) print "job " k ": key " t }
    else if (cls == "bk") print "job " k ": outside label '" text "' is not its key"
}
END {
    for (k in bar) if (!(k in row)) print "job " k ": no table row job-" k
    for (k in bar) if (bar[k] != 1) print "job " k ": " bar[k] " bars"
    printf "bars %d keys %d rows %d cut %d alone %d out %d\n", bars, keys, rows, cut, alone, out
}
