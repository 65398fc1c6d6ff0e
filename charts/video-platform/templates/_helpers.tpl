{{/* Chart name, used as app.kubernetes.io/name. */}}
{{- define "vp.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of one service's Deployment and Service: <release>-<service>. Takes (dict "root" $ "name" <service>). */}}
{{- define "vp.componentName" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Environment prefix of a service: playback-auth -> PLAYBACK_AUTH. */}}
{{- define "vp.envPrefix" -}}
{{- . | upper | replace "-" "_" -}}
{{- end -}}

{{- define "vp.configMapName" -}}
{{- printf "%s-config" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "vp.secretName" -}}
{{- .Values.config.existingSecret | default (printf "%s-secrets" .Release.Name | trunc 63 | trimSuffix "-") -}}
{{- end -}}

{{/* Labels on every object; takes (dict "root" $ "name" <service or "">). */}}
{{- define "vp.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: {{ include "vp.name" .root }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
{{ include "vp.selectorLabels" . }}
{{- end -}}

{{- define "vp.selectorLabels" -}}
app.kubernetes.io/name: {{ include "vp.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- if .name }}
app.kubernetes.io/component: {{ .name }}
{{- end }}
{{- end -}}

{{/* Image of one service: its own `image` override, else image.repository:image.tag. Takes (dict "root" $ "svc" <entry>). */}}
{{- define "vp.image" -}}
{{- if .svc.image -}}
{{- .svc.image -}}
{{- else -}}
{{- printf "%s:%v" .root.Values.image.repository (.root.Values.image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* Port of a named extra port ("http", "stream", "rtmp") of a service, for the *_PORT variables. */}}
{{- define "vp.namedPort" -}}
{{- $svc := index .root.Values.services .service | default dict -}}
{{- $ports := $svc.ports | default dict -}}
{{- index $ports .port | default .fallback -}}
{{- end -}}

{{/* Fails the render on settings the services would refuse at start-up. */}}
{{- define "vp.validate" -}}
{{- $c := .Values.config -}}
{{- if not $c.kafkaBrokers -}}
{{- fail "config.kafkaBrokers is required (host:port[,host:port...]): services run one per pod and share events through Kafka" -}}
{{- end -}}
{{- if and (not $c.databaseUrl) (not $c.existingSecret) -}}
{{- fail "config.databaseUrl is required (postgres://user:password@host:5432/db), or config.existingSecret holding DATABASE_URL" -}}
{{- end -}}
{{- if and (not $c.existingSecret) (ne (not $c.accessToken.id) (not $c.accessToken.secret)) -}}
{{- fail "config.accessToken.id and config.accessToken.secret must be set together" -}}
{{- end -}}
{{- if and (not $c.existingSecret) (ne (not $c.webhook.url) (not $c.webhook.secret)) -}}
{{- fail "config.webhook.url and config.webhook.secret must be set together" -}}
{{- end -}}
{{- if not $c.s3.endpoint -}}
{{- fail "config.s3.endpoint is required (http://minio:9000): the transcoder, playback-auth and assets run in separate pods and share the media through the object store" -}}
{{- end -}}
{{- if and $c.s3.endpoint (not $c.existingSecret) (or (not $c.s3.accessKey) (not $c.s3.secretKey)) -}}
{{- fail "config.s3.accessKey and config.s3.secretKey are required with config.s3.endpoint" -}}
{{- end -}}
{{- range $name, $svc := .Values.services -}}
{{- if and (ne $name "gateway") (not $svc.grpcPort) -}}
{{- fail (printf "services.%s.grpcPort is required" $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
The grant key: the configured one, else the one the release's Secret already holds (kept across
upgrades so grants in flight stay valid), else a new random one.
*/}}
{{- define "vp.grantSecret" -}}
{{- $c := .Values.config -}}
{{- if $c.playback.grantSecret -}}
{{- $c.playback.grantSecret -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "vp.secretName" .) -}}
{{- if and $existing $existing.data (hasKey $existing.data "PLAYBACK_GRANT_SECRET") -}}
{{- index $existing.data "PLAYBACK_GRANT_SECRET" | b64dec -}}
{{- else -}}
{{- randAlphaNum 48 -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* "true" when an autoscaler (an HPA of autoscaling.<name>, or KEDA for the transcoder and the webhooks) sets the replica count. Takes (dict "root" $ "name" <service>). */}}
{{- define "vp.autoscaled" -}}
{{- if or (hasKey .root.Values.autoscaling .name) (and .root.Values.keda.enabled (has .name (list "transcoder" "webhooks"))) -}}true{{- end -}}
{{- end -}}
