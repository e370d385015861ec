// The PDFKit half of scripts/make-cv-fixtures.sh: writes the PDFKit-produced CV fixtures into the
// folder given as the first argument. PDFKit places every run itself (no layout engine), so these
// files show what hand-positioned generators emit. Standard 14 fonts only, so nothing to install.
//
// Usage: node scripts/make-cv-fixtures.pdfkit.ts test/fixtures/cv

import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: make-cv-fixtures.pdfkit.ts OUT_DIR');

async function write(name: string, draw: (doc: Doc) => void): Promise<void> {
  // Fixed dates and no compression keep the output byte-stable between runs.
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    compress: false,
    info: {
      Title: name,
      CreationDate: new Date('2026-01-01T00:00:00Z'),
      ModDate: new Date('2026-01-01T00:00:00Z'),
    },
  });
  const done = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(join(outDir!, `${name}.pdf`));
    out.on('finish', resolve);
    out.on('error', reject);
    doc.pipe(out);
  });
  draw(doc);
  doc.end();
  await done;
}

// Two columns: a shaded sidebar on the left (contact, skills, languages), the main column on the
// right. Sidebar and main text are written independently, so their baselines do not line up.
function frTwoColumns(doc: Doc): void {
  const side = { x: 36, w: 150 };
  const main = { x: 216, w: 343 };
  doc.rect(0, 0, 200, 842).fill('#f0ede6');
  doc.fillColor('#222');

  let y = 48;
  const sideHeading = (label: string): void => {
    y += 14;
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('#7a3b12')
      .text(label.toUpperCase(), side.x, y, { width: side.w });
    doc.fillColor('#222');
    y = doc.y + 5;
  };
  const sideLine = (text: string): void => {
    doc.font('Helvetica').fontSize(9).text(text, side.x, y, { width: side.w });
    y = doc.y + 3;
  };
  sideHeading('Contact');
  sideLine('theo.martin-nguyen@example.fr');
  sideLine('+33 6 98 76 54 32');
  sideLine('Nantes (44), France');
  sideLine('github.com/example-theomn');
  sideHeading('Compétences');
  for (const skill of ['Go', 'Python', 'PostgreSQL', 'Kubernetes', 'gRPC', 'Observabilité']) sideLine(skill);
  sideHeading('Langues');
  sideLine('Français – natif');
  sideLine('Anglais – C1');
  sideLine('Vietnamien – notions');

  y = 44;
  doc.font('Helvetica-Bold').fontSize(24).text('Théo Martin-Nguyen', main.x, y, { width: main.w });
  y = doc.y + 2;
  doc
    .font('Helvetica')
    .fontSize(13)
    .fillColor('#555')
    .text('Développeur Backend', main.x, y, { width: main.w });
  doc.fillColor('#222');
  y = doc.y + 6;
  const heading = (label: string): void => {
    y += 12;
    doc.font('Helvetica-Bold').fontSize(13).fillColor('#7a3b12').text(label, main.x, y, { width: main.w });
    doc.fillColor('#222');
    y = doc.y + 4;
  };
  const para = (text: string, font = 'Helvetica', size = 10): void => {
    doc.font(font).fontSize(size).text(text, main.x, y, { width: main.w });
    y = doc.y + 2;
  };
  const bullet = (text: string): void => {
    doc
      .font('Helvetica')
      .fontSize(10)
      .text('•', main.x + 4, y);
    doc.text(text, main.x + 16, y, { width: main.w - 16 });
    y = doc.y + 2;
  };
  heading('Profil');
  para(
    'Développeur backend depuis huit ans, spécialisé dans les API à fort trafic et les systèmes distribués. ' +
      'Attaché aux tests, à la simplicité et au partage de connaissances.',
  );
  heading('Expériences');
  y += 4;
  para('Développeur Backend Senior', 'Helvetica-Bold', 11);
  para('Ouestcode SAS, Nantes  |  03/2020 – Présent', 'Helvetica-Oblique');
  bullet("Conception de l'API de réservation (Go, PostgreSQL) : 4 000 requêtes par seconde en pointe.");
  bullet('Mise en place du traçage distribué avec OpenTelemetry sur quarante services.');
  y += 6;
  para('Développeur Python', 'Helvetica-Bold', 11);
  para('Banque Régionale de l’Atlantique, Rennes  |  09/2017 – 02/2020', 'Helvetica-Oblique');
  bullet('Développement des services de scoring de crédit en Python et Django.');
  y += 6;
  para('Stagiaire développeur', 'Helvetica-Bold', 11);
  para('Logiciels Armor, Brest  |  2016', 'Helvetica-Oblique');
  bullet("Outil interne de suivi des tickets d'assistance.");
  heading('Formation');
  y += 2;
  para("Diplôme d'ingénieur en informatique", 'Helvetica-Bold', 11);
  para('INSA Rennes  |  2012 – 2017', 'Helvetica-Oblique');
}

// One column, headings in capitals, each role on one line as "Title | Company | dates".
function esOneColumn(doc: Doc): void {
  const x = 56;
  const w = 483;
  let y = 50;
  doc.font('Times-Bold').fontSize(20).text('MARÍA DEL CARMEN VIDAL', x, y, { width: w, align: 'center' });
  y = doc.y + 4;
  doc
    .font('Times-Roman')
    .fontSize(10.5)
    .text('Valencia, España  ·  +34 655 12 34 56  ·  mcarmen.vidal@example.es', x, y, {
      width: w,
      align: 'center',
    });
  y = doc.y + 2;
  doc.text('linkedin.com/in/example-mcvidal', x, y, { width: w, align: 'center' });
  y = doc.y + 8;
  const heading = (label: string): void => {
    y += 10;
    doc.font('Times-Bold').fontSize(12).text(label, x, y, { width: w });
    y = doc.y + 1;
    doc
      .moveTo(x, y)
      .lineTo(x + w, y)
      .lineWidth(0.6)
      .stroke();
    y += 5;
  };
  const para = (text: string, font = 'Times-Roman'): void => {
    doc.font(font).fontSize(10.5).text(text, x, y, { width: w });
    y = doc.y + 2;
  };
  const bullet = (text: string): void => {
    doc
      .font('Times-Roman')
      .fontSize(10.5)
      .text(`- ${text}`, x + 10, y, { width: w - 10 });
    y = doc.y + 1;
  };
  heading('PERFIL');
  para(
    'Jefa de proyecto con doce años de experiencia en obra civil e infraestructuras. ' +
      'Planificación, control de costes y coordinación de equipos multidisciplinares.',
  );
  heading('EXPERIENCIA PROFESIONAL');
  para('Jefa de Proyecto | Constructora Levante S.A. | 04/2018 - actualidad', 'Times-Bold');
  bullet('Dirección de obras de urbanización con presupuestos de hasta 12 millones de euros.');
  bullet('Implantación de BIM en la fase de licitación.');
  y += 4;
  para('Ingeniera de Obra | Infraestructuras Turia S.L. | 09/2014 - 03/2018', 'Times-Bold');
  bullet('Seguimiento de la ejecución de dos tramos de carretera y de su plan de seguridad.');
  y += 4;
  para('Técnica de Licitaciones | Grupo Albufera | 06/2012 - 08/2014', 'Times-Bold');
  bullet('Preparación de ofertas técnicas para concursos públicos.');
  heading('FORMACIÓN ACADÉMICA');
  para(
    'Máster en Ingeniería de Caminos, Canales y Puertos | Universitat Politècnica de València | 2010 - 2012',
    'Times-Bold',
  );
  para('Grado en Ingeniería Civil | Universitat Politècnica de València | 2006 - 2010', 'Times-Bold');
  heading('HABILIDADES');
  para('Gestión de proyectos · Presto · AutoCAD · Revit · Primavera P6 · Prevención de riesgos laborales');
  heading('IDIOMAS');
  para('Español (nativo) · Valenciano (nativo) · Inglés (B2) · Italiano (A2)');
}

// Two pages, sidebar on the right, "Title at Company" with the dates on the same line, and page
// furniture: "Page n of 2" footers and the name repeated at the top of page 2.
function enTwoPages(doc: Doc): void {
  const main = { x: 50, w: 330 };
  const side = { x: 410, w: 140 };
  const footer = (n: number) => {
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#777')
      .text(`Page ${n} of 2`, 0, 810, { width: 595, align: 'center' });
    doc.fillColor('#000');
  };
  doc.font('Helvetica-Bold').fontSize(22).text('Daniel Okafor', main.x, 50, { width: main.w });
  doc
    .font('Helvetica')
    .fontSize(12)
    .text('Site Reliability Engineer', main.x, doc.y + 2, { width: main.w });
  let y = doc.y + 16;
  const heading = (label: string, x: number, w: number): void => {
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#0b5563').text(label, x, y, { width: w });
    doc.fillColor('#000');
    y = doc.y + 5;
  };
  const para = (text: string, x = main.x, w = main.w, font = 'Helvetica', size = 10): void => {
    doc.font(font).fontSize(size).text(text, x, y, { width: w });
    y = doc.y + 3;
  };
  const role = (title: string, dates: string): void => {
    y += 6;
    doc
      .font('Helvetica-Bold')
      .fontSize(10.5)
      .text(title, main.x, y, { width: main.w - 95 });
    doc
      .font('Helvetica')
      .fontSize(9.5)
      .text(dates, main.x + main.w - 95, y, { width: 95, align: 'right' });
    y = doc.y + 3;
  };
  const bullet = (text: string): void => {
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(`•  ${text}`, main.x + 6, y, { width: main.w - 6 });
    y = doc.y + 2;
  };
  heading('Summary', main.x, main.w);
  para(
    'SRE with ten years of experience running payment and streaming platforms. I like boring, ' +
      'well-documented systems, blameless reviews and measurable service levels.',
  );
  y += 8;
  heading('Employment History', main.x, main.w);
  role('Staff SRE at Kinetik Streaming', 'Apr 2022 to date');
  bullet('Own the reliability roadmap for a platform serving 3 million concurrent viewers.');
  bullet('Introduced error budgets and SLO reviews across nine teams.');
  role('Senior SRE at Paylane Ltd', 'Jun 2018 to Mar 2022');
  bullet('Migrated 200 services to Kubernetes with no customer-facing incidents.');
  bullet('Built the on-call tooling and the incident command training.');
  role('Systems Engineer at Harrow Hosting', 'Aug 2014 to May 2018');
  bullet('Automated server provisioning with Ansible across three data centres.');

  let sy = 130;
  const sideHeading = (label: string) => {
    doc.font('Helvetica-Bold').fontSize(11).fillColor('#0b5563').text(label, side.x, sy, { width: side.w });
    doc.fillColor('#000');
    sy = doc.y + 4;
  };
  const sideLine = (text: string) => {
    doc.font('Helvetica').fontSize(9).text(text, side.x, sy, { width: side.w });
    sy = doc.y + 2;
  };
  sideHeading('Details');
  sideLine('Manchester, UK');
  sideLine('+44 161 496 0732');
  sideLine('d.okafor@example.co.uk');
  sideLine('github.com/example-dokafor');
  sy += 10;
  sideHeading('Technical Skills');
  for (const skill of ['Kubernetes', 'Terraform', 'Prometheus', 'Go', 'Python', 'Linux', 'PostgreSQL'])
    sideLine(skill);
  footer(1);

  doc.addPage();
  doc.font('Helvetica').fontSize(8).fillColor('#777').text('Daniel Okafor', 50, 30, { width: 495 });
  doc.fillColor('#000');
  y = 60;
  heading('Education', main.x, main.w);
  para('BEng Computer Systems Engineering', main.x, main.w, 'Helvetica-Bold', 10.5);
  para('University of Manchester, 2010 - 2014');
  y += 8;
  heading('Certifications', main.x, main.w);
  para('Certified Kubernetes Administrator (2021)');
  y += 8;
  heading('Languages', main.x, main.w);
  para('English - native; Igbo - conversational; French - basic');
  footer(2);
}

// One column whose entries are a two-cell table: the dates in a narrow left cell, the role on the
// right, row by row. Headings are larger Title-case text, not bold.
function ptDateTable(doc: Doc): void {
  const x = 60;
  const w = 475;
  const gutter = 110;
  doc.font('Times-Roman').fontSize(24).text('Beatriz Sousa Almeida', x, 52, { width: w });
  let y = doc.y + 2;
  doc.font('Times-Italic').fontSize(12).text('Engenheira Civil', x, y, { width: w });
  y = doc.y + 4;
  doc
    .font('Times-Roman')
    .fontSize(10)
    .text('Porto, Portugal — +351 22 123 4567 — beatriz.almeida@example.pt', x, y, { width: w });
  y = doc.y + 10;
  const heading = (label: string): void => {
    y += 10;
    doc.font('Times-Roman').fontSize(15).fillColor('#1f4e79').text(label, x, y, { width: w });
    doc.fillColor('#000');
    y = doc.y + 4;
  };
  const row = (when: string, what: string, detail?: string): void => {
    doc
      .font('Times-Roman')
      .fontSize(10)
      .text(when, x, y, { width: gutter - 10 });
    doc
      .font('Times-Bold')
      .fontSize(10.5)
      .text(what, x + gutter, y, { width: w - gutter });
    let bottom = doc.y;
    if (detail) {
      doc
        .font('Times-Roman')
        .fontSize(10)
        .text(detail, x + gutter, bottom + 1, { width: w - gutter });
      bottom = doc.y;
    }
    y = bottom + 7;
  };
  heading('Perfil');
  doc
    .font('Times-Roman')
    .fontSize(10.5)
    .text(
      'Engenheira civil com experiência em direção de obra e gestão de contratos de infraestruturas rodoviárias.',
      x,
      y,
      { width: w },
    );
  y = doc.y + 2;
  heading('Experiência Profissional');
  row(
    '2021 – presente',
    'Diretora de Obra, Mota Obras Públicas',
    'Direção de obras de reabilitação de pontes na região Norte.',
  );
  row(
    '2018 – 2021',
    'Engenheira de Produção, Construções Douro Lda.',
    'Planeamento e controlo de custos de obras até 8 milhões de euros.',
  );
  row('2016 – 2018', 'Engenheira Estagiária, Câmara Municipal de Gaia');
  heading('Habilitações Literárias');
  row(
    '2011 – 2016',
    'Mestrado Integrado em Engenharia Civil',
    'Faculdade de Engenharia da Universidade do Porto',
  );
  heading('Competências');
  doc
    .font('Times-Roman')
    .fontSize(10.5)
    .text('AutoCAD | Revit | MS Project | Gestão de equipas | Segurança em obra', x, y, { width: w });
  y = doc.y + 2;
  heading('Idiomas');
  doc
    .font('Times-Roman')
    .fontSize(10.5)
    .text('Português (nativo), Inglês (C1), Francês (B1)', x, y, { width: w });
}

await write('fr-pdfkit-2col', frTwoColumns);
await write('es-pdfkit-1col', esOneColumn);
await write('en-pdfkit-2col', enTwoPages);
await write('pt-pdfkit-1col', ptDateTable);
