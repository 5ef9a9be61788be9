/** The /docs page's script (plain ES5, no dependencies): lists the documents and renders one. */
export const DOCS_JS = `"use strict";
(function () {
  var el = function (tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  };
  var main = document.getElementById("main");
  var nav = document.getElementById("documents");
  var list = [];
  var cache = {};

  function refName(ref) { return ref.slice(ref.lastIndexOf("/") + 1); }

  function typeOf(s) {
    if (!s || typeof s !== "object") return "any";
    if (s.$ref) return refName(s.$ref);
    if (s.enum) return s.enum.map(function (v) { return JSON.stringify(v); }).join(" | ");
    if (s.const !== undefined) return JSON.stringify(s.const);
    if (s.anyOf) return s.anyOf.map(typeOf).join(" | ");
    if (s.type === "array") return "array of " + typeOf(s.items);
    if (s.type === "object" && !s.properties && s.additionalProperties && typeof s.additionalProperties === "object") {
      return "map of " + typeOf(s.additionalProperties);
    }
    return s.type || "any";
  }

  function rules(s) {
    var out = [];
    ["format", "pattern", "minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "minItems", "maxItems", "default"].forEach(function (k) {
      if (s && s[k] !== undefined) out.push(k + " " + JSON.stringify(s[k]));
    });
    if (s && s.uniqueItems) out.push("unique items");
    return out.join(", ");
  }

  /** A schema as a nested list: one line per property with its type, rules and description. */
  function schemaTree(s, depth) {
    var ul = el("ul", null, "schema");
    var target = s && s.type === "array" ? s.items : s;
    if (target && target.properties) {
      var required = target.required || [];
      Object.keys(target.properties).forEach(function (name) {
        var p = target.properties[name];
        var li = el("li");
        li.appendChild(el("code", name));
        li.appendChild(document.createTextNode(" " + typeOf(p) + (required.indexOf(name) >= 0 ? ", required" : "")));
        var r = rules(p);
        if (r) li.appendChild(el("span", " (" + r + ")", "muted"));
        if (p.description) li.appendChild(document.createTextNode(": " + p.description));
        if (depth < 4 && (p.properties || (p.items && p.items.properties))) li.appendChild(schemaTree(p, depth + 1));
        ul.appendChild(li);
      });
      if (target.additionalProperties === false) ul.appendChild(el("li", "no other properties", "muted"));
    } else {
      var li = el("li", typeOf(s));
      var r = rules(s);
      if (r) li.appendChild(el("span", " (" + r + ")", "muted"));
      ul.appendChild(li);
    }
    return ul;
  }

  function schemaBlock(s) {
    var div = el("div");
    div.appendChild(el("div", typeOf(s)));
    if (s && !s.$ref && (s.properties || (s.items && s.items.properties))) div.appendChild(schemaTree(s, 0));
    return div;
  }

  function responseOf(doc, r) {
    return r.$ref ? doc.components.responses[refName(r.$ref)] : r;
  }

  function operation(doc, path, method, op) {
    var sec = el("section", null, "op");
    sec.id = op.operationId;
    var h = el("h2");
    h.appendChild(el("span", method, "method " + method));
    h.appendChild(el("span", path, "path"));
    h.appendChild(el("span", op.operationId, "opid"));
    sec.appendChild(h);
    sec.appendChild(el("p", op.summary));
    if (op.description) sec.appendChild(el("p", op.description, "muted"));
    var security = op.security || doc.security || [];
    sec.appendChild(el("p", "Credentials: " + (security.length === 0 ? "none" : security.map(function (s) {
      var names = Object.keys(s);
      return names.length ? names.join(" + ") : "optional";
    }).join(" or ")), "muted"));
    if (op.parameters && op.parameters.length) {
      sec.appendChild(el("h3", "Parameters"));
      var t = el("table");
      var head = el("tr");
      ["name", "in", "type", "rules", "description"].forEach(function (c) { head.appendChild(el("th", c)); });
      t.appendChild(head);
      op.parameters.forEach(function (p) {
        var tr = el("tr");
        tr.appendChild(el("td", p.name + (p.required ? " *" : "")));
        tr.appendChild(el("td", p.in));
        tr.appendChild(el("td", typeOf(p.schema)));
        tr.appendChild(el("td", rules(p.schema)));
        tr.appendChild(el("td", p.description || p.schema.description || ""));
        t.appendChild(tr);
      });
      sec.appendChild(t);
    }
    if (op.requestBody) {
      sec.appendChild(el("h3", "Request body" + (op.requestBody.required ? "" : " (optional)")));
      Object.keys(op.requestBody.content).forEach(function (type) {
        sec.appendChild(el("div", type, "muted"));
        sec.appendChild(schemaBlock(op.requestBody.content[type].schema));
      });
    }
    sec.appendChild(el("h3", "Responses"));
    var rt = el("table");
    Object.keys(op.responses).forEach(function (status) {
      var r = responseOf(doc, op.responses[status]);
      var tr = el("tr");
      tr.appendChild(el("td", status));
      var td = el("td", r.description);
      var json = r.content && r.content["application/json"];
      if (json) td.appendChild(schemaBlock(json.schema));
      tr.appendChild(td);
      rt.appendChild(tr);
    });
    sec.appendChild(rt);
    return sec;
  }

  function render(doc) {
    main.textContent = "";
    main.appendChild(el("h1", doc.info.title + " " + doc.info.version));
    main.appendChild(el("p", doc.info.description));
    Object.keys(doc.paths).forEach(function (path) {
      Object.keys(doc.paths[path]).forEach(function (method) {
        main.appendChild(operation(doc, path, method, doc.paths[path][method]));
      });
    });
    main.appendChild(el("h2", "Schemas"));
    Object.keys(doc.components.schemas).forEach(function (name) {
      var sec = el("section", null, "op");
      sec.id = "schema-" + name;
      sec.appendChild(el("h3", name));
      sec.appendChild(schemaTree(doc.components.schemas[name], 0));
      main.appendChild(sec);
    });
    main.appendChild(el("h2", "Security schemes"));
    Object.keys(doc.components.securitySchemes).forEach(function (name) {
      var s = doc.components.securitySchemes[name];
      main.appendChild(el("p", name + ": " + s.type + " " + (s.scheme || "") + (s.description ? ": " + s.description : "")));
    });
  }

  function show() {
    var name = location.hash.slice(1) || (list[0] && list[0].name);
    var entry = list.filter(function (d) { return d.name === name; })[0];
    if (!entry) return;
    Array.prototype.forEach.call(nav.children, function (a) { if (a.dataset.name) a.className = a.dataset.name === name ? "current" : ""; });
    if (cache[name]) return render(cache[name]);
    fetch(entry.url).then(function (r) { return r.json(); }).then(function (doc) { cache[name] = doc; render(doc); });
  }

  fetch("/openapi/").then(function (r) { return r.json(); }).then(function (index) {
    list = index.documents;
    list.forEach(function (d) {
      var a = el("a", d.title);
      a.href = "#" + d.name;
      a.dataset.name = d.name;
      nav.appendChild(a);
      var raw = el("a", "(json)", "muted");
      raw.href = d.url;
      nav.appendChild(raw);
    });
    window.addEventListener("hashchange", show);
    show();
  }, function () { main.textContent = "The documents could not be loaded."; });
})();
`;
