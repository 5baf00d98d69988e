#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""campaign_write_test.py [-v]: fuzz/campaign's one writer (write_file) and
what it does to a campaign, without a fuzz build:

  - a new path and an existing file (its mode kept), a symbolic link (its
    target written, the link kept; a dangling link's target created), a
    FIFO with a reader (written in place, still a FIFO), a character
    device made with mknod in a temporary directory (still a character
    device; root only);
  - a read-only directory (as nobody when root, since root ignores
    permissions), ENOSPC on a 64 KiB tmpfs and EROFS on a read-only one
    (mount: root only), an fsync that fails and a write interrupted by a
    signal: exit status 3, the one line 'campaign: PATH: strerror', the
    old file byte for byte, no temporary file left;
  - the campaign itself (stand-in fuzz target and agewalk) with a findings
    directory it cannot write: exit 3 and that one line;
  - agewalk minimize is given --max-runs (--minimize-runs) and --max-time
    (--minimize-time); its exit status 4 (the safety stop fired) keeps
    the reproducer, marked incomplete in index.json and INDEX.md.

Exit status 0 when every case passed, 1 when one failed, 77 (skipped) when
none failed but a case could not run here (not root, mount refused)."""
import importlib.machinery
import importlib.util
import json
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import types
import unittest
from unittest import mock

sys.dont_write_bytecode = True		# nothing in the source tree's fuzz/
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAMPAIGN = os.path.join(SRC, 'fuzz', 'campaign')


def load_campaign():
    loader = importlib.machinery.SourceFileLoader('campaign', CAMPAIGN)
    spec = importlib.util.spec_from_loader('campaign', loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


campaign = load_campaign()
ROOT = os.geteuid() == 0
# a program that writes through write_file and exits as the campaign does
WRITER = '''
import importlib.machinery, importlib.util, sys
sys.dont_write_bytecode = True
loader = importlib.machinery.SourceFileLoader('campaign', sys.argv[1])
spec = importlib.util.spec_from_loader('campaign', loader)
c = importlib.util.module_from_spec(spec)
loader.exec_module(c)
try:
    c.write_file(sys.argv[2], b'x' * int(sys.argv[3]))
except c.OutputError as e:
    print(f'campaign: {e}', file=sys.stderr)
    sys.exit(c.EXIT_OUTPUT)
'''


def as_nobody():
    """argv prefix running a command as nobody (root ignores permissions)."""
    if not ROOT:
        return []
    if not shutil.which('setpriv'):
        raise unittest.SkipTest('setpriv not installed (Debian: util-linux)')
    return ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']


class Dir(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(prefix='campaign-write.')
        os.chmod(self.d, 0o755)		# nobody must reach into it
        self.mounts = []

    def tearDown(self):
        for m in reversed(self.mounts):
            subprocess.run(['umount', m], stderr=subprocess.DEVNULL)
        shutil.rmtree(self.d, ignore_errors=True)

    def path(self, *names):
        return os.path.join(self.d, *names)

    def old(self, path, data=b'the old file\n', mode=0o644):
        with open(path, 'wb') as f:
            f.write(data)
        os.chmod(path, mode)
        return data

    def read(self, path):
        with open(path, 'rb') as f:
            return f.read()

    def no_temps(self, d):
        left = [n for n in os.listdir(d) if n.startswith('.') and n.endswith('.tmp')]
        self.assertEqual(left, [], f'temporary files left in {d}')

    def tmpfs(self, name, size='64k'):
        if not ROOT:
            self.skipTest('mount -t tmpfs needs root')
        m = self.path(name)
        os.mkdir(m)
        p = subprocess.run(['mount', '-t', 'tmpfs', '-o', f'size={size},mode=755', 'tmpfs', m],
                           capture_output=True, text=True)
        if p.returncode:
            self.skipTest(f'mount -t tmpfs not permitted: {p.stderr.strip()}')
        self.mounts.append(m)
        return m

    def writer(self, path, size, prefix=()):
        """write_file(path, size bytes) in a process of its own: (status, stderr)."""
        p = subprocess.run(list(prefix) + [sys.executable, '-c', WRITER, CAMPAIGN, path, str(size)],
                           capture_output=True, text=True, timeout=60)
        return p.returncode, p.stderr

    def fails(self, path, size, reason, prefix=()):
        """exit 3, one line 'campaign: PATH: reason', the old file byte for byte, no temporary"""
        data = self.read(path)
        mode = os.stat(path).st_mode
        rc, err = self.writer(path, size, prefix)
        self.assertEqual(rc, campaign.EXIT_OUTPUT, err)
        self.assertEqual(err, f'campaign: {path}: {reason}\n')
        self.assertEqual(self.read(path), data)
        self.assertEqual(os.stat(path).st_mode, mode)
        self.no_temps(os.path.dirname(path))


class WriteFile(Dir):
    def test_new_file(self):
        p = self.path('new.json')
        campaign.write_file(p, '{}\n')
        self.assertEqual(self.read(p), b'{}\n')
        self.assertEqual(stat.S_IMODE(os.stat(p).st_mode), 0o666 & ~campaign.UMASK)
        self.no_temps(self.d)

    def test_existing_file_keeps_mode(self):
        p = self.path('INDEX' '.md')
        self.old(p, mode=0o640)
        campaign.write_file(p, b'new\n')
        self.assertEqual(self.read(p), b'new\n')
        self.assertEqual(stat.S_IMODE(os.stat(p).st_mode), 0o640)
        self.no_temps(self.d)

    def test_symlink_target_written(self):
        self.old(self.path('target.json'))
        os.symlink('target.json', self.path('link.json'))
        campaign.write_file(self.path('link.json'), b'through the link\n')
        self.assertTrue(os.path.islink(self.path('link.json')))
        self.assertEqual(self.read(self.path('target.json')), b'through the link\n')
        self.no_temps(self.d)

    def test_dangling_symlink_creates_target(self):
        os.mkdir(self.path('sub'))
        os.symlink('sub/made.json', self.path('dangling.json'))
        campaign.write_file(self.path('dangling.json'), b'made\n')
        self.assertTrue(os.path.islink(self.path('dangling.json')))
        self.assertEqual(self.read(self.path('sub', 'made.json')), b'made\n')
        self.no_temps(self.path('sub'))

    def test_fifo_with_reader(self):
        p = self.path('fifo.json')
        os.mkfifo(p)
        got = []
        reader = threading.Thread(target=lambda: got.append(self.read(p)), daemon=True)
        reader.start()
        campaign.write_file(p, b'x' * 200000)	# more than a pipe holds
        reader.join(30)
        self.assertFalse(reader.is_alive(), 'the reader never saw the end of the data')
        self.assertEqual(got, [b'x' * 200000])
        self.assertTrue(stat.S_ISFIFO(os.lstat(p).st_mode), 'the FIFO was replaced')
        self.no_temps(self.d)

    def test_character_device(self):
        if not ROOT:
            self.skipTest('mknod needs root')
        p = self.path('null')
        os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, 3))	# a null device of our own, never /dev/null
        campaign.write_file(p, b'to the device\n')
        st = os.lstat(p)
        self.assertTrue(stat.S_ISCHR(st.st_mode), 'the device was replaced')
        self.assertEqual(st.st_rdev, os.makedev(1, 3))
        self.no_temps(self.d)

    def test_directory_is_an_error(self):
        os.mkdir(self.path('dir'))
        with self.assertRaises(campaign.OutputError) as cm:
            campaign.write_file(self.path('dir'), b'x')
        self.assertEqual(str(cm.exception), f"{self.path('dir')}: Is a directory")

    def test_read_only_directory(self):
        ro = self.path('ro')
        os.mkdir(ro)
        self.old(os.path.join(ro, 'state.json'))
        os.chmod(ro, 0o555)
        try:
            self.fails(os.path.join(ro, 'state.json'), 100, 'Permission denied', as_nobody())
        finally:
            os.chmod(ro, 0o755)

    def test_enospc(self):
        m = self.tmpfs('full')
        p = os.path.join(m, 'index.json')
        self.old(p)
        self.fails(p, 200000, 'No space left on device')

    def test_erofs(self):
        m = self.tmpfs('rofs')
        p = os.path.join(m, 'index.json')
        self.old(p)
        r = subprocess.run(['mount', '-o', 'remount,ro', m], capture_output=True, text=True)
        if r.returncode:
            self.skipTest(f'remount,ro refused: {r.stderr.strip()}')
        self.fails(p, 100, 'Read-only file system')

    def test_fsync_fails(self):
        p = self.path('state.json')
        data = self.old(p)
        with mock.patch.object(campaign.os, 'fsync', side_effect=OSError(5, 'Input/output error')):
            with self.assertRaises(campaign.OutputError) as cm:
                campaign.write_file(p, b'new')
        self.assertEqual(str(cm.exception), f'{p}: Input/output error')
        self.assertEqual(self.read(p), data)
        self.no_temps(self.d)

    def test_interrupted_write(self):
        """a signal in the middle of the write (Ctrl-C): the old file stays"""
        p = self.path('INDEX' '.md')
        data = self.old(p)
        real = os.write
        calls = []

        def write(fd, buf):
            calls.append(fd)
            if len(calls) == 2:
                raise KeyboardInterrupt
            return real(fd, buf[:4096])
        with mock.patch.object(campaign.os, 'write', side_effect=write):
            with self.assertRaises(KeyboardInterrupt):
                campaign.write_file(p, b'y' * 100000)
        self.assertEqual(self.read(p), data)
        self.no_temps(self.d)

    def test_killed_writer(self):
        """a writer killed (SIGKILL) after its data went out, before the
        rename: the old file stays whole, never the new one in part"""
        p = self.path('big.json')
        data = self.old(p)
        stall = WRITER.replace('try:\n    c.write_file', 'import os, time\nos.fsync = lambda fd: time.sleep(60)\n'
                               'try:\n    c.write_file', 1)
        proc = subprocess.Popen([sys.executable, '-c', stall, CAMPAIGN, p, str(1 << 20)],
                                stderr=subprocess.DEVNULL)
        try:
            for _ in range(1000):	# until its temporary file holds everything
                tmp = [n for n in os.listdir(self.d) if n.startswith('.big.json.')]
                if tmp and os.path.getsize(self.path(tmp[0])) == 1 << 20:
                    break
                threading.Event().wait(0.01)
            else:
                self.fail('the writer never filled its temporary file')
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        self.assertEqual(self.read(p), data)


def stub(path, text):
    with open(path, 'w') as f:
        f.write('#!/bin/sh\n' + text)
    os.chmod(path, 0o755)


class CampaignRun(Dir):
    """fuzz/campaign itself, with stand-ins for the fuzz target and agewalk."""

    def setUp(self):
        super().setUp()
        os.makedirs(self.path('b', 'fuzz'))
        stub(self.path('b', 'fuzz', 'agewalk_fuzz_lockstep'), 'exit 0\n')
        stub(self.path('agewalk'), 'exit 0\n')
        for d in (self.path('b'), self.path('b', 'fuzz')):
            os.chmod(d, 0o755)

    def test_unwritable_findings_exit_3(self):
        c = self.path('c')
        os.makedirs(os.path.join(c, 'findings'))
        index = os.path.join(c, 'findings', 'index.json')
        data = self.old(index, b'{"old": true}\n')
        os.chmod(os.path.join(c, 'findings'), 0o555)
        if ROOT:	# the campaign's directory is nobody's, its findings/ not
            nobody = pwd.getpwnam('nobody')
            for dirpath, _, _ in os.walk(c):
                if dirpath != os.path.join(c, 'findings'):
                    os.chown(dirpath, nobody.pw_uid, nobody.pw_gid)
        p = subprocess.run(as_nobody() + [CAMPAIGN, '-B', self.path('b'), '--agewalk', self.path('agewalk'),
                                          '-o', c, '-d', '1', '--progress', '1'],
                           capture_output=True, text=True, timeout=120, cwd=self.d)
        self.assertEqual(p.returncode, campaign.EXIT_OUTPUT, p.stderr)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(lines[-1], f'campaign: {index}: Permission denied', p.stderr)
        self.assertEqual(self.read(index), data)
        self.no_temps(os.path.join(c, 'findings'))

    def test_minimize_budget_and_incomplete(self):
        """--minimize-runs and --minimize-time reach agewalk minimize; its exit
        4 keeps the reproducer, marked incomplete"""
        c = self.path('c')
        argv = self.path('argv')
        # agewalk minimize: record the command line, write the reproducer, exit 4
        stub(self.path('agewalk'), f'''
case $1 in
minimize)
	printf '%s\\n' "$@" >{argv}
	while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
	printf '# incomplete: stopped by --max-time\\nnode 0 cpus 0 mem 1G\\n' >"$out"
	echo 'agewalk minimize: incomplete: stopped by --max-time after 3 runs' >&2
	exit 4 ;;
run) echo '  signature: oracle-x [base,pud] cause'; exit 1 ;;
esac
exit 0
''')
        args = types.SimpleNamespace(engine='libfuzzer', duration='1', cores=1, rss_mb=2048, progress=1,
                                     minimize_time=7, minimize_runs=1234, agewalk=self.path('agewalk'),
                                     build=self.path('b'), target='agewalk_fuzz_lockstep', bug=None, dir=c)
        k = campaign.Campaign(args)
        k.lock()
        self.addCleanup(k.lockf.close)
        k.load_state()
        k.mono0 = k.session_start = 0
        k.before_seconds = 0
        crash = os.path.join(c, 'crashes', 'agewalk_fuzz_lockstep', 'crash-1')
        os.makedirs(os.path.dirname(crash))
        with open(crash, 'wb') as f:
            f.write(b'\0' * 32)
        e = k.signature('oracle-x [base,pud] cause', 0, finding={'oracle': 'oracle-x', 'cause': 'cause'},
                        target='agewalk_fuzz_lockstep', variants='base,pud')
        e['crash_files'].append(os.path.relpath(crash, c))
        self.assertEqual(e['minimize'], 'pending')
        k.mini_poll()
        self.assertIsNotNone(k.mini)
        k.mini[0].wait(30)
        k.mini_poll()
        with open(argv) as f:
            a = f.read().split('\n')
        self.assertIn('--max-runs', a)
        self.assertEqual(a[a.index('--max-runs') + 1], '1234')
        self.assertEqual(a[a.index('--max-time') + 1], '7')
        self.assertEqual(e['minimize'], 'done')
        self.assertTrue(e['minimize_incomplete'])
        final = os.path.join(c, 'findings', f"{e['slug']}.aws")
        self.assertTrue(self.read(final).startswith(b'# incomplete'))
        self.assertTrue(e['verified'])
        k.write_index()
        with open(os.path.join(c, 'findings', 'index.json')) as f:
            row = json.load(f)['signatures'][0]
        self.assertEqual((row['minimize'], row['minimize_incomplete'], row['reproducer']),
                         ('done', True, f"{e['slug']}.aws"))
        with open(os.path.join(c, 'findings', 'INDEX' '.md')) as f:
            self.assertIn('(minimization incomplete: --minimize-time stopped it', f.read())
        self.no_temps(os.path.join(c, 'findings'))


def main():
    res = unittest.main(exit=False, verbosity=2 if '-v' in sys.argv else 1).result
    if res.failures or res.errors:
        return 1
    if res.skipped:
        for t, why in res.skipped:
            print(f'skipped: {t.id()}: {why}')
        return 77
    return 0


if __name__ == '__main__':
    sys.exit(main())
