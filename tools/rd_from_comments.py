#!/usr/bin/env python3
"""Writes man/*.Rd from the #' comments of R/*.R where roxygen2 is not installed.

Covers what Argus's comments use: a title paragraph, a description paragraph, further
paragraphs as details, @param, @return, @details, @examples, @seealso, @keywords, @name,
@rdname (several functions on one page), @method (S3 usage); and the markdown in them:
`code` (\verb{} when it holds an unbalanced quote), [fn()], [pkg::fn()], **bold**; % is
escaped. Blocks without a title (print methods) get no page. Usage, from the package root:
    python3 tools/rd_from_comments.py R man
then run R CMD check (its codoc step compares the pages with the functions)."""
import re, sys, os, glob, textwrap

def md(text):
    # protect existing Rd escapes, convert markdown pieces
    out = []
    # split on backtick code spans first
    parts = re.split(r'(`[^`]*`)', text)
    for p in parts:
        if p.startswith('`') and p.endswith('`') and len(p) >= 2:
            code = p[1:-1]
            code = code.replace('\\', '\\\\').replace('%', '\\%').replace('{', '\\{').replace('}', '\\}')
            raw = p[1:-1]
            if raw.count("'") % 2 or raw.count('"') % 2:
                out.append('\\verb{' + code + '}')  # \code{} would read an unbalanced quote as a string
            else:
                out.append('\\code{' + code + '}')
        else:
            q = re.sub(r'(?<!\\)%', r'\\%', p)
            q = re.sub(r'\[([A-Za-z0-9.]+)::([A-Za-z0-9._]+)\(\)\]',
                       lambda m: '\\code{\\link[%s:%s]{%s::%s()}}' % (m.group(1), m.group(2), m.group(1), m.group(2)), q)
            q = re.sub(r'\[([A-Za-z0-9._]+)\(\)\]', lambda m: '\\code{\\link{%s}()}' % m.group(1), q)
            q = re.sub(r'\*\*([^*]+)\*\*', r'\\strong{\1}', q)
            out.append(q)
    return ''.join(out)

def parse_blocks(path):
    lines = open(path).read().split('\n')
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("#'"):
            doc = []
            while i < len(lines) and lines[i].startswith("#'"):
                doc.append(lines[i][2:][1:] if lines[i][2:3] == ' ' else lines[i][2:])
                i += 1
            code = []
            while i < len(lines) and not lines[i].startswith("#'"):
                code.append(lines[i])
                if '{' in lines[i] or lines[i].strip() == '"_PACKAGE"' or lines[i].strip() == '':
                    break
                i += 1
            blocks.append((doc, '\n'.join(code)))
        else:
            i += 1
    return blocks

def split_tags(doc):
    intro, tags, cur = [], [], None
    for line in doc:
        m = re.match(r'@(\w+)\s?(.*)', line)
        if m:
            cur = [m.group(1), [m.group(2)]]
            tags.append(cur)
        elif cur is None:
            intro.append(line)
        else:
            cur[1].append(line)
    return intro, [(t, '\n'.join(v).rstrip()) for t, v in tags]

def signature(code):
    m = re.match(r'\s*`?([A-Za-z0-9._]+)`?\s*<-\s*function\s*\(', code)
    if not m:
        return None, None
    name = m.group(1)
    start = code.index('function') + len('function')
    depth, j = 0, start
    while j < len(code):
        if code[j] == '(':
            depth += 1
        elif code[j] == ')':
            depth -= 1
            if depth == 0:
                break
        j += 1
    args = re.sub(r'\s+', ' ', code[start + 1:j]).strip()
    return name, args

def paragraphs(lines):
    text = '\n'.join(lines).strip('\n')
    return [p.strip('\n') for p in re.split(r'\n\s*\n', text) if p.strip()]

def wrap_usage(head, args):
    one = '%s(%s)' % (head, args)
    if len(one) <= 80:
        return one
    # split top-level commas
    parts, depth, cur = [], 0, ''
    for ch in args:
        if ch in '([{': depth += 1
        if ch in ')]}': depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur.strip()); cur = ''
        else:
            cur += ch
    parts.append(cur.strip())
    return head + '(\n' + ',\n'.join('  ' + p for p in parts) + '\n)'

def main(rdir, mandir):
    topics = {}
    order = []
    for path in sorted(glob.glob(os.path.join(rdir, '*.R'))):
        for doc, code in parse_blocks(path):
            intro, tags = split_tags(doc)
            tagd = {}
            for t, v in tags:
                tagd.setdefault(t, []).append(v)
            fname, args = signature(code)
            method = tagd.get('method', [None])[0]
            rdname = tagd.get('rdname', [None])[0]
            name = tagd.get('name', [None])[0] or fname
            if code.strip().startswith('"_PACKAGE"'):
                name = 'Argus-package'
            if not rdname and not paragraphs(intro):
                continue  # undocumented (print methods etc.)
            target = rdname or name
            if target not in topics:
                topics[target] = dict(file=os.path.basename(path), aliases=[], usage=[], params=[],
                                      title=None, description=None, details=[], value=[],
                                      examples=[], seealso=[], keywords=[], docType=None, sections=[])
                order.append(target)
            t = topics[target]
            if code.strip().startswith('"_PACKAGE"'):
                t['docType'] = 'package'
                t['aliases'] += ['Argus', 'Argus-package']
            if name and name not in t['aliases'] and name != 'Argus-package':
                t['aliases'].append(name)
            if fname and fname not in t['aliases']:
                t['aliases'].append(fname)
            paras = paragraphs(intro)
            if paras and t['title'] is None:
                t['title'] = paras[0].replace('\n', ' ')
                rest = paras[1:]
                if 'description' in tagd:
                    t['description'] = tagd['description'][0]
                    t['details'] += rest
                elif rest:
                    t['description'] = rest[0]
                    t['details'] += rest[1:]
            for d in tagd.get('details', []):
                t['details'].append(d)
            if fname and args is not None:
                if method:
                    g, c = method.split()
                    head = '\\method{%s}{%s}' % (g, c)
                else:
                    head = fname
                t['usage'].append(wrap_usage(head, args))
            for p in tagd.get('param', []):
                m = re.match(r'(\S+)\s+(.*)', p, re.S)
                t['params'].append((m.group(1), m.group(2)))
            t['value'] += tagd.get('return', [])
            t['examples'] += tagd.get('examples', [])
            t['seealso'] += tagd.get('seealso', [])
            t['keywords'] += tagd.get('keywords', [])
    for target in order:
        t = topics[target]
        out = ['%% Written from the #\' comments in R/%s by tools/rd_from_comments.py: edit those, not this file' % t['file']]
        if t['docType']:
            out.append('\\docType{%s}' % t['docType'])
        out.append('\\name{%s}' % target)
        for a in t['aliases']:
            out.append('\\alias{%s}' % a)
        out.append('\\title{%s}' % md(t['title']))
        if t['usage']:
            out.append('\\usage{\n%s\n}' % '\n\n'.join(t['usage']))
        if t['params']:
            out.append('\\arguments{\n%s\n}' % '\n\n'.join('\\item{%s}{%s}' % (n, md(d)) for n, d in t['params']))
        if t['value']:
            out.append('\\value{\n%s\n}' % md('\n\n'.join(t['value'])))
        if not t['description']:
            t['description'] = t['title']
        if t['description']:
            out.append('\\description{\n%s\n}' % md(t['description']))
        if t['details']:
            out.append('\\details{\n%s\n}' % md('\n\n'.join(t['details'])))
        if t['seealso']:
            out.append('\\seealso{\n%s\n}' % md('\n'.join(t['seealso'])))
        if t['examples']:
            ex = '\n'.join(e.strip('\n') for e in t['examples'])
            out.append('\\examples{\n%s\n}' % re.sub(r'(?<!\\)%', r'\\%', ex))
        for k in t['keywords']:
            out.append('\\keyword{%s}' % k)
        if t['docType'] == 'package':
            out.append('\\author{\n\\strong{Maintainer}: Argus developers \\email{argus-dev@example.org}\n}')
        open(os.path.join(mandir, target + '.Rd'), 'w').write('\n'.join(out) + '\n')
        print('wrote', target)

main(sys.argv[1], sys.argv[2])
